// The text handler with Node's environment, as a module (no stdin loop): what
// tests/node/run_tsnode.mjs hands to Pyodide as its JavaScript bridge.
import { makeHandler } from "./bridge";
import { nodeEnvironment } from "./node-env";

export const handle = makeHandler(nodeEnvironment());
