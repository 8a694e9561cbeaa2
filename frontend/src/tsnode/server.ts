// The Node.js transport of the TypeScript node runtime: one JSON request per line on stdin,
// one JSON answer per line on stdout (Maelstrom's shape). The build and CPython's tests start
// it once (pysim/cluster/ts_knoten.py, `NodeGegenstelle`) and reuse it. Bundled by
// frontend/build.mjs (`--tsnode`) to .cache/tsnode/server.mjs; typescript-js stays external
// and comes from node_modules.
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { createInterface } from "node:readline";
import { checkNode, useGerman } from "./check";
import type { Answer, Request } from "./protocol";
import declarations from "./reader/knoten.d.ts?raw";
import { Engine } from "./runtime";

const require = createRequire(import.meta.url);
const libDir = dirname(require.resolve("typescript-js/lib/lib.es2022.d.ts"));
useGerman(JSON.parse(readFileSync(join(libDir, "de", "diagnosticMessages.generated.json"), "utf8")) as object);

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

const engine = new Engine();
const lines = createInterface({ input: process.stdin, crlfDelay: Infinity });
lines.on("line", (line) => {
  let answer: Answer;
  try {
    const request = JSON.parse(line) as Request;
    answer =
      request.op === "check"
        ? { diagnostics: checkNode(request.code, { readLib, declarations }) }
        : engine.handle(request);
  } catch (e) {
    answer = { fault: e instanceof Error ? (e.stack ?? e.message) : String(e) };
  }
  process.stdout.write(JSON.stringify(answer) + "\n");
});
