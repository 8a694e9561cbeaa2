// The runtime in the browser's Python worker: a chunk of its own (typescript-js inside),
// imported only when a call asks for TypeScript (worker/python-worker.ts `tsNode`, chunk `tsnode-worker-<hash>.js`), then
// handed to Python as the JavaScript module `lessonkit_tsnode` (pysim/cluster/ts_knoten.py
// `PyodideGegenstelle`). The type check (`check`) is not loaded here yet.
import { makeHandler } from "./bridge";

export const handle = makeHandler(null);
