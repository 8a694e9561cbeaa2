// The runtime in the browser's Python worker: a chunk of its own (typescript-js inside),
// imported only when a call asks for TypeScript (worker/python-worker.ts `tsNode`, chunk
// `tsnode-worker-<hash>.js`), then handed to Python as the JavaScript module
// `lessonkit_tsnode` (pysim/cluster/ts_knoten.py `PyodideGegenstelle`). The type check's
// data (TypeScript's lib files, the German messages) is a second chunk, `tsnode-check.ts`,
// loaded for the first `typescript.check` call and handed over with `useCheck`.
//
// The worker runs under the page's Content-Security-Policy, which evaluates no strings
// (ARCHITECTURE.md, "Content-Security-Policy"): a reader's compiled node is imported as an
// ES module from a `blob:` address (`script-src blob:`) by `prepare`, before the call that
// runs it reaches Python, and the engine's loader hands out what the import made.
import { makeHandler } from "./bridge";
import { useGerman, type CheckEnvironment } from "./check";
import type { Compiled } from "./compile";
import { Engine, type Factory, factoryBody, GLOBALS, type Loader } from "./runtime";
import type { CheckData } from "./tsnode-check";

let checkEnvironment: CheckEnvironment | null = null;

export function useCheck(data: CheckData): void {
  useGerman(JSON.parse(data.german) as object);
  checkEnvironment = { readLib: (name) => data.libs[name], declarations: data.declarations };
}

/** The factories `prepare` imported, by their compiled code (the few nodes of a page). */
const imported = new Map<string, Factory>();

const moduleLoader: Loader = {
  factory: (compiled) => {
    const factory = imported.get(compiled.js);
    if (factory === undefined) throw new Error("Der übersetzte Knoten ließ sich in diesem Browser nicht laden (die Konsole sagt, warum).");
    return factory;
  },
  // `export default function (…) {` and `"use strict";` stand before the compiled code.
  offset: 2,
  frame: /blob:[^\s)]*?:(\d+):(\d+)/g,
};

const engine = new Engine(moduleLoader);

/** Imports the node in `code` (compiled as the engine compiles it) as an ES module, once:
 * Python's `compile` request then finds it. A node that does not compile is left to that
 * request, which says why in German. */
export async function prepare(code: string): Promise<void> {
  const compiled = engine.compiled(code);
  if (!("js" in compiled) || imported.has(compiled.js)) return;
  const url = URL.createObjectURL(new Blob([moduleText(compiled)], { type: "text/javascript" }));
  try {
    const module = (await import(url)) as { default: Factory };
    imported.set(compiled.js, module.default);
  } catch (error) {
    // Python's compile request then says in German that the node could not be loaded.
    console.warn("lessonkit: Der übersetzte Knoten ließ sich nicht laden.", error);
  } finally {
    URL.revokeObjectURL(url);
  }
}

function moduleText(compiled: Compiled): string {
  return `export default function (${GLOBALS.join(", ")}) {\n${factoryBody(compiled)}}\n`;
}

export const handle = makeHandler(() => checkEnvironment, engine);
