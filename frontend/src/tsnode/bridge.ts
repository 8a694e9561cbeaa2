// The call protocol as text: one JSON request in, one JSON answer out. Both transports use
// it: the Node.js process (server.ts, a line each) and Pyodide's JavaScript bridge (the
// Python worker calls `handle` synchronously; tests/node/run_tsnode.mjs does so under Node).
import { checkNode, type CheckEnvironment } from "./check";
import type { Answer, Request } from "./protocol";
import { Engine } from "./runtime";

/** A handler of requests as JSON text. `env`: where the type check finds TypeScript's lib
 * files, or a function that gives it once it is loaded (the browser's check chunk); none:
 * `check` answers that it is not available here. `engine`: the browser's loads nodes as
 * modules (tsnode-worker.ts). */
export function makeHandler(
  env: CheckEnvironment | null | (() => CheckEnvironment | null),
  engine: Engine = new Engine(),
): (text: string) => string {
  return (text: string): string => {
    let answer: Answer;
    try {
      const request = JSON.parse(text) as Request;
      if (request.op === "check") {
        const found = typeof env === "function" ? env() : env;
        answer =
          found === null
            ? { fault: "Die Typprüfung ist hier nicht geladen." }
            : { diagnostics: checkNode(request.code, found) };
      } else {
        answer = engine.handle(request);
      }
    } catch (e) {
      answer = { fault: e instanceof Error ? (e.stack ?? e.message) : String(e) };
    }
    return JSON.stringify(answer);
  };
}
