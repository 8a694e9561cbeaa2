// The type check's environment under Node.js: TypeScript's lib files and German messages
// from node_modules/typescript-js, the reader's declarations bundled as text.
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { useGerman, type CheckEnvironment } from "./check";
import declarations from "./reader/knoten.d.ts?raw";

export function nodeEnvironment(): CheckEnvironment {
  const require = createRequire(import.meta.url);
  const libDir = dirname(require.resolve("typescript-js/lib/lib.es2022.d.ts"));
  const german = readFileSync(join(libDir, "de", "diagnosticMessages.generated.json"), "utf8");
  useGerman(JSON.parse(german) as object);
  const libs = new Map<string, string | undefined>();
  const readLib = (name: string): string | undefined => {
    if (!libs.has(name)) {
      let text: string | undefined;
      try {
        text = readFileSync(join(libDir, name), "utf8");
      } catch {
        text = undefined;
      }
      libs.set(name, text);
    }
    return libs.get(name);
  };
  return { readLib, declarations };
}
