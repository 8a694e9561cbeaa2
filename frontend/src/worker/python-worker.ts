/**
 * The module Web Worker that hosts Pyodide for a page.
 *
 * Python never runs on the page's main thread, so a long or endless cell cannot
 * freeze the page; the page stops such a cell by terminating this worker.
 * The worker loads Pyodide and the packaged `pysim` + `lessonkit.runtime.kernel` from the
 * site itself (names in `runtime.json`), then runs cells through the same kernel
 * the build uses.
 */
import type { PyodideInterface } from "pyodide";
import type { PyProxy } from "pyodide/ffi";
import type { CellResult, FromWorker, ToWorker } from "../runtime/protocol";
import { installPackages } from "../../../lessonkit/node/packages.mjs";
import { referToScript } from "./referrer";
import { sealWorkerScope } from "./sandbox";
import { Meter } from "./meter";
import { fetchSnapshot, type Fetched } from "./snapshot";
import { serveWasmFromZstd } from "./wasm";
import { fetchBytecode, LEAN_STDLIB, type BytecodeFiles } from "./bytecode";
import { chooseStart, SLOW_LINE_BYTES_PER_SECOND } from "./choose-start";
import { restoring } from "../../../lessonkit/node/snapshot_format.mjs";
import { STALE_WORKER, staleFile } from "../runtime/deployment";

declare const self: DedicatedWorkerGlobalScope;
/** runtime.json of this worker's own deployment, baked in by frontend/build.mjs ("": none). */
declare const LESSONKIT_RUNTIME: string;
/** This worker's deployment (frontend/build.mjs; in this entry file, never in a shared chunk). */
declare const LESSONKIT_BUILD: string;
const BUILD_VERSION: string | null = typeof LESSONKIT_BUILD === "string" ? LESSONKIT_BUILD : null;

interface Runtime {
  packages: string;
  pyodide: string;
  /** A compressed memory snapshot with the packages imported, or null. */
  snapshot: string | null;
  /** The SHA-256 (hex) of the compressed snapshot's bytes, which a download must have. */
  snapshotSha256?: string;
  /** An empty zip in Pyodide's folder: the standard library of a start from the snapshot. */
  emptyStdlib?: string;
  /** Pyodide's WebAssembly compressed with Zstandard, in Pyodide's folder (wasm.ts). */
  compressedWasm?: string;
  /** The SHA-256 (hex) of Pyodide's WebAssembly, which its kept decoded copy must have. */
  wasmSha256?: string;
  /** The start from bytecode's files (bytecode.ts), or absent. */
  bytecode?: BytecodeFiles;
  /** Which start: chosen per reader ("auto", chooseStart), or fixed by the build. */
  start?: "auto" | "snapshot" | "bytecode";
}

interface LoadOptions {
  indexURL: string;
  packageBaseUrl: string;
  /** Pyodide's Emscripten module factory (pyodide.asm.mjs's default export), imported
   * by the worker itself so it comes while the WebAssembly downloads. */
  createPyodideModule?: unknown;
  stdLibURL?: string;
  _loadSnapshot?: Promise<Uint8Array>;
}

type LoadPyodide = (options: LoadOptions) => Promise<PyodideInterface>;

/**
 * Start Pyodide from the snapshot when there is one (Python ready in a fraction of the
 * time); fall back to a plain start, and say so in the console, not to the reader.
 * The snapshot is handed over while it still downloads: Pyodide fetches and compiles
 * its WebAssembly meanwhile and awaits the snapshot only right before it needs it.
 */
async function start(
  load: LoadPyodide,
  snapshot: Promise<Fetched> | null,
  options: LoadOptions,
  emptyStdlib: URL | null,
): Promise<{ pyodide: PyodideInterface; fromSnapshot: boolean }> {
  if (snapshot) {
    // The snapshot is finished with the module's own memory once Pyodide has instantiated it.
    const restore = restoring(snapshot.then((fetched) => fetched.memory));
    // It holds every module the course imports: the standard library comes only on demand.
    const lean = emptyStdlib ? { ...options, stdLibURL: emptyStdlib.href } : options;
    try {
      const pyodide = await load({ ...lean, _loadSnapshot: restore.snapshot });
      // A download is checked while Pyodide starts from it (snapshot.ts): nothing of the
      // reader's runs on memory that is not the build's.
      await (await snapshot).checked;
      return { pyodide, fromSnapshot: true };
    } catch (error) {
      console.warn("lessonkit: Speicherabbild nicht nutzbar, Python startet ohne.", error);
      stage("without snapshot");
    } finally {
      restore.undo();
    }
  }
  return { pyodide: await load(options), fromSnapshot: false };
}

/** A started Pyodide: from the snapshot or not, with the lean standard library or not,
 * and the packages zip to install (sources, or sources and bytecode). */
interface Started {
  pyodide: PyodideInterface;
  fromSnapshot: boolean;
  lean: boolean;
  zip: Promise<ArrayBuffer | Uint8Array>;
}

/**
 * Start Pyodide from the bytecode files (bytecode.ts); should they fail, a plain start
 * with the full standard library and the packages zip (said in the console).
 */
async function startFromBytecode(
  load: LoadPyodide,
  bytecode: ReturnType<typeof fetchBytecode>,
  options: LoadOptions,
  packagesZip: () => Promise<ArrayBuffer>,
): Promise<Started> {
  try {
    // Pyodide compiles the WebAssembly while the library still comes (its request waits).
    const pyodide = await load({ ...options, stdLibURL: new URL(LEAN_STDLIB, options.indexURL).href });
    return { pyodide, fromSnapshot: false, lean: true, zip: bytecode.packages.catch(packagesZip) };
  } catch (error) {
    console.warn("lessonkit: Bytecode nicht nutzbar, Python startet ohne.", error);
  }
  return { pyodide: await load(options), fromSnapshot: false, lean: false, zip: packagesZip() };
}

/**
 * The full standard library's bytes, fetched synchronously (allowed in a worker): the
 * first import of a module the snapshot does not hold waits for it (lessonkit/runtime/stdlib.py).
 */
function stdlibFetcher(url: URL): () => Uint8Array {
  return () => {
    const request = new XMLHttpRequest();
    request.open("GET", url.href, false);
    request.responseType = "arraybuffer";
    request.send();
    if (request.status !== 200) throw new Error(`HTTP ${request.status}`);
    return new Uint8Array(request.response as ArrayBuffer);
  };
}

function post(message: FromWorker): void {
  self.postMessage(message);
}

/** Milliseconds since the worker started, per boot stage (read by the benchmark). */
const stages: Record<string, number> = {};
const stage = (name: string): void => {
  stages[name] = Math.round(performance.now());
};

/**
 * Resolved a second after Python is ready, when this worker is next idle (a timer waits
 * for a running cell): the decoded WebAssembly (9.6 MB) is kept for the next visit then,
 * not while Python starts or runs the reader's first cell, which it slowed on two cores
 * (benchmarks/README.md). So is the snapshot (16 MB), once it passed its check
 * (snapshot.ts): written while the first run came, it held that run's output up.
 */
const KEEP_AFTER_MS = 1000;
let readyNow: () => void = () => undefined;
const pythonReady = new Promise<void>((resolve) => {
  readyNow = () => setTimeout(resolve, KEEP_AFTER_MS);
});

// Made from a blob (runtime/sandboxed-worker.ts): requests name this script, with its `?v=`.
referToScript(self, import.meta.url);

/** The reader sees the runtime's bytes arrive (page: "Python wird geladen … x von y MB"). */
const meter = new Meter(post);
/** Not counted: what Python needs only once it has started (the packages zip). */
const uncountedFetch = meter.wrapFetch(self);

/**
 * The names of this deployment's runtime files: baked into this script, so they are never
 * another deployment's (a `runtime.json` fetched anew named a newer runtime to an older
 * page's worker). Only a build without runtime.json fetches it.
 */
async function runtimeFiles(base: URL): Promise<Runtime> {
  if (typeof LESSONKIT_RUNTIME === "string" && LESSONKIT_RUNTIME) return JSON.parse(LESSONKIT_RUNTIME) as Runtime;
  return (await (await fetch(new URL("runtime.json", base), { cache: "no-cache" })).json()) as Runtime;
}

async function boot(): Promise<Python> {
  const started = performance.now();
  stage("boot");
  // The page names its deployment (`?v=`); a worker of another one loads nothing and
  // says so, and the page reloads (runtime/deployment.ts).
  const pageVersion = new URL(import.meta.url).searchParams.get("v");
  if (staleFile(pageVersion, { worker: BUILD_VERSION })) throw new Error(STALE_WORKER);
  // The worker lives in assets/generated/js/; its assets are one folder up.
  const base = new URL("../", import.meta.url);
  const runtime = await runtimeFiles(base);
  stage("runtime.json");
  const pyodideBase = new URL(runtime.pyodide, base);
  const wasm = new URL("pyodide.asm.wasm", pyodideBase);
  const wasmRate =
    runtime.compressedWasm && runtime.wasmSha256
      ? serveWasmFromZstd(self, wasm, new URL(runtime.compressedWasm, pyodideBase), runtime.wasmSha256, pythonReady)
      : Promise.resolve(null);
  // Pyodide's loader and its Emscripten module (which it would import only once called)
  // come while the start is chosen.
  const loader = import(/* @vite-ignore */ new URL("pyodide.mjs", pyodideBase).href) as Promise<{ loadPyodide: LoadPyodide }>;
  loader.catch(() => undefined); // reported where it is awaited
  const engine = import(/* @vite-ignore */ new URL("pyodide.asm.mjs", pyodideBase).href) as Promise<{ default: unknown }>;
  engine.catch(() => undefined); // then Pyodide imports it itself
  // The line's speed once known (chooseStart waits for it; a fixed start does not).
  let rate: number | null | undefined;
  void wasmRate.then((known) => (rate = known));
  const how = await chooseStart(runtime, wasmRate);
  stage(`start:${how}`);
  const bytecode =
    how === "bytecode" && runtime.bytecode
      ? fetchBytecode(self, new URL(LEAN_STDLIB, pyodideBase), {
          stdlib: new URL(runtime.bytecode.stdlib, base),
          packages: new URL(runtime.bytecode.packages, base),
        })
      : null;
  const snapshot =
    how === "snapshot" && runtime.snapshot
      ? fetchSnapshot(new URL(runtime.snapshot, base), pythonReady, runtime.snapshotSha256).then((fetched) => {
          stage("snapshot");
          return fetched;
        })
      : null;
  snapshot?.catch(() => undefined); // reported by start() when it is awaited
  // The packages zip (0.5 MB) is needed only after Pyodide has started. On a slow line
  // (a start fixed to the snapshot) it is asked for once the snapshot is here, so it does
  // not share the line with the snapshot and the WebAssembly but arrives while Pyodide
  // restores the snapshot (and the reader's "x von y MB" does not count it: Python
  // "startet" meanwhile); on a fast one at once, so that it is there when Python is.
  const slowLine = rate === undefined || (rate !== null && rate < SLOW_LINE_BYTES_PER_SECOND);
  const packagesZip = (): Promise<ArrayBuffer> =>
    (slowLine && snapshot ? snapshot : Promise.resolve())
      .catch(() => undefined)
      .then(() => uncountedFetch(new URL(runtime.packages, base)))
      .then((response) => {
        if (!response.ok) throw new Error(`${runtime.packages}: HTTP ${response.status}`);
        return response.arrayBuffer();
      });
  const packages = bytecode ? null : packagesZip();
  packages?.catch(() => undefined); // reported where it is awaited
  const module = await loader;
  stage("pyodide.mjs");
  // packageBaseUrl: never fall back to a CDN for packages; everything comes from this site.
  const createPyodideModule = await engine.then(
    (module) => module.default,
    () => undefined,
  );
  const options = { indexURL: pyodideBase.href, packageBaseUrl: pyodideBase.href, createPyodideModule };
  meter.startPhase();
  const emptyStdlib = runtime.emptyStdlib ? new URL(runtime.emptyStdlib, pyodideBase) : null;
  const begun: Started = bytecode
    ? await startFromBytecode(module.loadPyodide, bytecode, options, packagesZip)
    : { ...(await start(module.loadPyodide, snapshot, options, emptyStdlib)), lean: false, zip: packages ?? packagesZip() };
  const { pyodide } = begun;
  stage("loadPyodide");
  // The snapshot holds Python's memory but no files: the packages zip, for later imports.
  installPackages(pyodide, new Uint8Array(await begun.zip));
  if (begun.lean) {
    // The standard library on demand: its modules the course needs are there as bytecode.
    pyodide.runPython("import lessonkit.runtime.stdlib, _lessonkit_stdlib_names\nlessonkit.runtime.stdlib.install(_lessonkit_stdlib_names.NAMES)");
  }
  if (begun.lean || (begun.fromSnapshot && emptyStdlib)) {
    const stdlib = pyodide.pyimport("lessonkit.runtime.stdlib") as PyProxy;
    stdlib.set_fetch(stdlibFetcher(new URL("python_stdlib.zip", pyodideBase)));
    stdlib.destroy();
  }
  // The snapshot was made with a fixed entropy stream (lessonkit/node/make_snapshot.mjs):
  // the reader's unseeded `random` is seeded from this browser's entropy, as in CPython.
  pyodide.runPython("import random\nrandom.seed()");
  stage("packages");
  const bridge = pyodide.pyimport("lessonkit.runtime.bridge") as PyProxy;
  const kernel = bridge.kernel as PyProxy;
  installSleep(pyodide);
  stage("bridge");
  watchForDeath(pyodide);
  sealWorkerScope(); // before any reader code: no caches, storage or nested workers
  post({ type: "ready", seconds: (performance.now() - started) / 1000, stages });
  readyNow();
  return { kernel, bridge, exhausted: () => memoryExhausted(pyodide), pyodide };
}

/** The TypeScript node runtime, loaded once, on the first call that asks for TypeScript
 * (`sprache: "typescript"`, or `typescript.check`): its chunk holds TypeScript's compiler;
 * the check's data (lib files, German messages) is a second chunk, loaded for the first
 * check (benchmarks/README.md). */
type TsRuntime = typeof import("../tsnode/tsnode-worker");
let tsNodeLoaded: Promise<TsRuntime> | null = null;
let tsCheckLoaded: Promise<void> | null = null;
function tsNode(py: Python, check: boolean): Promise<TsRuntime> {
  tsNodeLoaded ??= import("../tsnode/tsnode-worker").then((runtime) => {
    py.pyodide.registerJsModule("lessonkit_tsnode", { handle: runtime.handle });
    return runtime;
  });
  tsNodeLoaded.catch(() => {
    tsNodeLoaded = null; // a failed load (offline) may be tried again
  });
  if (!check) return tsNodeLoaded;
  tsCheckLoaded ??= Promise.all([tsNodeLoaded, import("../tsnode/tsnode-check")]).then(([runtime, data]) => {
    runtime.useCheck(data.checkData);
  });
  tsCheckLoaded.catch(() => {
    tsCheckLoaded = null;
  });
  return tsCheckLoaded.then(() => tsNodeLoaded as Promise<TsRuntime>);
}

/** The reader's TypeScript node a call runs (`sprache: "typescript"`), or null. */
function typeScriptNode(args: unknown): string | null {
  if (typeof args !== "object" || args === null) return null;
  const { sprache, code } = args as { sprache?: unknown; code?: unknown };
  return sprache === "typescript" && typeof code === "string" ? code : null;
}

/** Loads what a call needs of TypeScript: the runtime (and the check's data for a check),
 * and the reader's node imported as a module before Python asks for it. */
async function readyForTypeScript(py: Python, name: string, args: unknown): Promise<void> {
  const node = typeScriptNode(args);
  if (name !== "typescript.check" && node === null) return;
  const runtime = await tsNode(py, name === "typescript.check");
  if (node !== null) await runtime.prepare(node);
}

/** What Python must still be able to get for a run (output, a result, a traceback). */
const SPARE_BYTES = 8 << 20;

/**
 * Reader code that keeps (nearly) all the memory WebAssembly may have leaves Python
 * answering every later run and call with a MemoryError (or with text that is not
 * JSON) until it is restarted: asked after a run or call that failed so, this tells.
 */
function memoryExhausted(pyodide: PyodideInterface): boolean {
  try {
    pyodide.runPython(`bytearray(${SPARE_BYTES})\nNone`);
    return false;
  } catch {
    return true;
  }
}

/**
 * Python can die under a run (`os._exit`, a stack overflow in WebAssembly, a broken
 * interpreter): Pyodide then throws outside any promise, and the run never ends.
 * Only when Python no longer answers a trivial question tell the page, which
 * starts a new worker; other stray errors are no reason to.
 */
function watchForDeath(pyodide: PyodideInterface): void {
  let told = false;
  const check = (reason: unknown): void => {
    if (told) return;
    try {
      // Throws once Pyodide "already exited" or "fatally failed", or when the reader's
      // code broke what every run needs (e.g. `__builtins__.clear()`).
      if (pyodide.runPython("import builtins; builtins.len('ok')") === 2) return;
    } catch {
      // dead
    }
    told = true;
    post({ type: "dead", message: String(reason) });
  };
  self.addEventListener("error", (event) => check(event.error ?? event.message));
  self.addEventListener("unhandledrejection", (event) => check(event.reason));
}

/**
 * `time.sleep` that blocks this worker (only the running cell; `Stopp` ends it) by
 * `Atomics.wait` on a shared WebAssembly memory, which needs no cross-origin isolation.
 * Pyodide's own needs WebAssembly stack switching and fails in browsers without it.
 */
function installSleep(pyodide: PyodideInterface): void {
  let cell: Int32Array;
  try {
    cell = new Int32Array(new WebAssembly.Memory({ shared: true, initial: 1, maximum: 1 }).buffer);
  } catch {
    return; // no shared memory here: Pyodide's own time.sleep stays
  }
  const kernelModule = pyodide.pyimport("lessonkit.runtime.kernel") as PyProxy;
  kernelModule.install_sleep((milliseconds: number) => Atomics.wait(cell, 0, 0, milliseconds));
  kernelModule.destroy();
}

interface Python {
  /** lessonkit.runtime.kernel.Kernel: runs cells. */
  kernel: PyProxy;
  /** lessonkit.runtime.bridge: consoles and other calls. */
  bridge: PyProxy;
  /** Python's memory is used up (see memoryExhausted). */
  exhausted: () => boolean;
  pyodide: PyodideInterface;
}

/** A run or call failed, maybe for want of memory: if so, the page restarts Python
 * (true: it was told, the request needs no answer). */
function toldExhausted(py: Python): boolean {
  if (!py.exhausted()) return false;
  post({ type: "exhausted" });
  return true;
}

const python = boot();
python.catch((error: unknown) => post({ type: "failed", id: null, message: String(error) }));

// Runs one request at a time, in arrival order (the page also queues them).
let queue: Promise<void> = Promise.resolve();

self.onmessage = (event: MessageEvent<ToWorker>) => {
  const message = event.data;
  queue = queue.then(() => handle(message));
};

async function handle(message: ToWorker): Promise<void> {
  let py: Python;
  try {
    py = await python;
  } catch (error) {
    if (message.type !== "reset") post({ type: "failed", id: message.id, message: String(error) });
    return;
  }
  if (message.type === "reset") {
    await py.bridge.call("page.reset", "{}");
    return;
  }
  if (message.type === "call") {
    try {
      await readyForTypeScript(py, message.name, message.args);
      const value = (await py.bridge.call(message.name, JSON.stringify(message.args))) as string;
      post({ type: "value", id: message.id, value: JSON.parse(value) as unknown });
    } catch (error) {
      if (!toldExhausted(py)) post({ type: "failed", id: message.id, message: String(error) });
    }
    return;
  }
  const { id } = message;
  // One message per batch of output (lessonkit.runtime.kernel `on_parts`), not one per stretch.
  const onParts = (parts: PyProxy): void => {
    post({ type: "chunks", id, parts: parts.toJs() as [string, string][] });
  };
  let result: PyProxy | undefined;
  try {
    const run = py.kernel.run as PyProxy & { callKwargs: (...args: unknown[]) => Promise<unknown> };
    result = (await run.callKwargs(message.session, message.code, message.label, { on_parts: onParts })) as PyProxy;
    // JSON keeps Python's None as null (toJs would turn it into undefined).
    const parsed = JSON.parse(result.to_json() as string) as CellResult;
    if (parsed.error_type === "MemoryError" && toldExhausted(py)) return;
    post({ type: "result", id, result: parsed });
  } catch (error) {
    if (!toldExhausted(py)) post({ type: "failed", id, message: String(error) });
  } finally {
    result?.destroy();
  }
}
