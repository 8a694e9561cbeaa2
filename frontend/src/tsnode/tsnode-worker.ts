// The runtime in the browser's Python worker: a chunk of its own (typescript-js inside),
// imported only when a call asks for TypeScript (worker/python-worker.ts `tsNode`, chunk
// `tsnode-worker-<hash>.js`), then handed to Python as the JavaScript module
// `lessonkit_tsnode` (pysim/cluster/ts_knoten.py `PyodideGegenstelle`). The type check's
// data (TypeScript's lib files, the German messages) is a second chunk, `tsnode-check.ts`,
// loaded for the first `typescript.check` call and handed over with `useCheck`.
import { makeHandler } from "./bridge";
import { useGerman, type CheckEnvironment } from "./check";
import type { CheckData } from "./tsnode-check";

let checkEnvironment: CheckEnvironment | null = null;

export function useCheck(data: CheckData): void {
  useGerman(JSON.parse(data.german) as object);
  checkEnvironment = { readLib: (name) => data.libs[name], declarations: data.declarations };
}

export const handle = makeHandler(() => checkEnvironment);
