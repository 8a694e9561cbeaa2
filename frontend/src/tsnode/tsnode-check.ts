// What the browser's type check needs besides the compiler, as data: TypeScript's lib files
// (`lib.es2022.d.ts` and what it references, frontend/build.mjs's `tsnode-libs`), the
// reader's declarations and TypeScript's German messages. A chunk of its own, loaded for the
// first `typescript.check` (worker/python-worker.ts), not for running a node; it imports
// nothing of the compiler, so the compiler stays in `tsnode-worker` alone.
import libs from "tsnode-libs";
import declarations from "./reader/knoten.d.ts?raw";
import german from "typescript-js/lib/de/diagnosticMessages.generated.json?raw";

export interface CheckData {
  libs: Record<string, string>;
  declarations: string;
  /** TypeScript's lib/de/diagnosticMessages.generated.json, as text. */
  german: string;
}

export const checkData: CheckData = { libs, declarations, german };
