// The Node.js transport of the TypeScript node runtime: one JSON request per line on stdin,
// one JSON answer per line on stdout (Maelstrom's shape). The build and CPython's tests start
// it once (lessonkit/build/tsnode.py, pysim/cluster/ts_knoten.py `NodeGegenstelle`) and
// reuse it. Bundled by frontend/build.mjs (`--tsnode`) to .cache/tsnode/server.mjs;
// typescript-js stays external and comes from node_modules.
import { createInterface } from "node:readline";
import { makeHandler } from "./bridge";
import { nodeEnvironment } from "./node-env";

const handle = makeHandler(nodeEnvironment());
const lines = createInterface({ input: process.stdin, crlfDelay: Infinity });
lines.on("line", (line) => {
  process.stdout.write(handle(line) + "\n");
});
