/**
 * The page's connection to Python: one worker, started on first need or when
 * the page is idle, and restarted when the reader stops a running block, presses
 * "Python neu starten", or Python dies under a run. A restart is an event every
 * block of the page handles (`onRestart`): nothing the reader did is lost unsaid.
 */
import { whenIdle } from "./idle";
import type { CallName, Calls } from "../generated/contract";
import { checkMessage } from "./incoming";
import type { CellResult, FromWorker, RunRequest, ToWorker } from "./protocol";

export type RuntimeState = "idle" | "loading" | "ready" | "broken";

/** Thrown to callers whose run was cut short by `restart()`. */
export class RestartedError extends Error {
  constructor() {
    super("Python wurde neu gestartet.");
  }
}

/**
 * A run or call that Python itself could not carry out after it had started (not an
 * error of the reader's code, which is part of the result): Python is damaged.
 */
export class PythonFailedError extends Error {}

/**
 * Thrown to callers whose run was still waiting for Python to load when the reader
 * pressed `Stopp` (`cancelQueued()`): nothing ran, nothing is lost, Python loads on.
 */
export class CancelledError extends Error {
  constructor() {
    super("Abgebrochen, bevor Python bereit war.");
  }
}

/** How far Python's start is: bytes of the runtime files received, then starting. */
export interface LoadProgress {
  phase: "download" | "start";
  loaded: number;
  /** 0 when the sizes are not known (compressed responses). */
  total: number;
}

/** The phase, for a block's status (its live region): "Python wird geladen …" / "Python startet …". */
export function progressText(progress: LoadProgress | null): string {
  return progress?.phase === "start" ? "Python startet …" : "Python wird geladen …";
}

/** The bytes, shown beside the status but not announced: "3,1 von 12,4 MB" (German numbers). */
export function progressBytes(progress: LoadProgress | null): string {
  if (!progress || progress.phase === "start" || progress.loaded === 0) return "";
  const mb = (bytes: number): string => (bytes / 1e6).toFixed(1).replace(".", ",");
  if (progress.total > 0) return `${mb(Math.min(progress.loaded, progress.total))} von ${mb(progress.total)} MB`;
  return `${mb(progress.loaded)} MB`;
}

/** Why Python is not there and what the reader can do, for every block that needed it. */
export function unavailableText(error: unknown): string {
  const reason = error instanceof Error ? error.message : String(error);
  return (
    `Python konnte nicht gestartet werden (${reason.replace(/\.$/, "")}). Lade die Seite neu; ` +
    "das hilft meistens. Mögliche Gründe: keine Verbindung, bevor Python einmal gespeichert war; " +
    "ein Blocker, der Web Worker oder WebAssembly verbietet; zu wenig freier Speicher auf dem Gerät. " +
    "Hilft das Neuladen nicht, probier einen anderen Browser."
  );
}

/** Why Python was restarted: a block's `Stopp`, the page's button, or Python died. */
export type RestartReason = "stopp" | "neustart" | "absturz";

export type RestartListener = (reason: RestartReason) => void;

interface Pending {
  onChunk: (stream: string, text: string) => void;
  resolve: (result: never) => void;
  reject: (error: Error) => void;
}

type Listener = () => void;

/** A worker that the page's <head> started before this script ran (overrides/main.html). */
interface EarlyWorker {
  worker: Worker;
  messages: MessageEvent<FromWorker>[];
  errors: ErrorEvent[];
}

declare global {
  interface Window {
    lessonkitEarlyWorker?: EarlyWorker | undefined;
  }
}

/** Take over the early worker once; later starts (after a restart) make their own. */
function adoptEarlyWorker(): EarlyWorker | undefined {
  const early = window.lessonkitEarlyWorker;
  window.lessonkitEarlyWorker = undefined;
  return early;
}

export class PythonRuntime {
  /** Increases on every restart: cells compare it to know whether their state survived. */
  epoch = 0;
  state: RuntimeState = "idle";
  /** Seconds from starting the worker until Python was ready (for the benchmark). */
  readySeconds: number | null = null;
  /** Milliseconds since the worker started at which each boot stage ended (for the benchmark). */
  readyStages: Record<string, number> = {};
  /** `performance.now()` of the page when Python reported ready (for the benchmark). */
  readyAt: number | null = null;
  /** How far the current start is (null before the worker's first report). */
  progress: LoadProgress | null = null;
  /** Increases on every `cancelQueued()`: runs queued before it end with CancelledError. */
  cancels = 0;
  /** Ends the runs that wait for Python's start (`cancelQueued`). */
  private cancelWaiting: ((error: Error) => void) | null = null;

  private worker: Worker | null = null;
  private ready: Promise<void> | null = null;
  /** Fails a start still under way when the worker is replaced (its answer never comes). */
  private abandonStart: ((error: Error) => void) | null = null;
  private nextId = 1;
  private readonly pending = new Map<number, Pending>();
  private queue: Promise<unknown> = Promise.resolve();
  /** Requests queued or running (the worker is busy while this is above zero). */
  private inFlight = 0;
  private readonly listeners = new Set<Listener>();
  /** The current page's blocks; a new page starts with none. */
  private readonly restartListeners = new Set<RestartListener>();
  /** Finished runs whose background tasks may still write (their cell's `onChunk`). */
  private readonly finished = new Map<number, Pending["onChunk"]>();

  constructor(private readonly workerUrl: URL) {}

  /** Called whenever `state` or `epoch` changes. */
  subscribe(listener: Listener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Called after every restart, with its reason; the listeners of a page end with it. */
  onRestart(listener: RestartListener): () => void {
    this.restartListeners.add(listener);
    return () => this.restartListeners.delete(listener);
  }

  /** Start the worker if it is not running; resolves when Python is ready. */
  start(): Promise<void> {
    if (this.ready) return this.ready;
    const early = adoptEarlyWorker();
    const worker = early?.worker ?? new Worker(this.workerUrl, { type: "module", name: "python" });
    this.worker = worker;
    this.progress = null;
    this.setState("loading");
    this.ready = new Promise<void>((resolve, reject) => {
      this.abandonStart = reject;
      worker.onmessage = (event: MessageEvent<unknown>) => {
        // The reader's code can post messages too: only the protocol's shapes count.
        const message = checkMessage(event.data);
        if (!message) return;
        if (message.type === "ready") {
          this.readySeconds = message.seconds;
          this.readyStages = message.stages;
          this.readyAt = performance.now();
          this.setState("ready");
          resolve();
        } else if (message.type === "failed" && message.id === null) {
          this.setState("broken");
          reject(new Error(message.message));
        } else if (message.type === "dead") {
          this.died(worker, message.message);
        } else if (message.type === "progress") {
          this.progress = { phase: message.phase, loaded: message.loaded, total: message.total };
          for (const listener of this.listeners) listener();
        } else {
          this.dispatch(message);
        }
      };
      worker.onerror = (event) => {
        if (this.state === "ready") {
          this.died(worker, event.message);
          return;
        }
        this.setState("broken");
        reject(new Error(event.message || "Der Python-Worker ließ sich nicht starten."));
      };
      // Replay what the worker said before this page script took it over.
      for (const event of early?.errors ?? []) worker.onerror?.(event);
      for (const event of early?.messages ?? []) worker.onmessage?.(event);
    });
    this.ready.catch(() => undefined);
    return this.ready;
  }

  /** Start Python in the background once the browser is idle. */
  warmUp(): void {
    void whenIdle().then(() => this.start().catch(() => undefined));
  }

  /**
   * Resolves once Python is not loading (ready, broken or not started), then when the
   * browser is idle: work that can wait (the editors, the offline cache) waits for it,
   * so it does not compete with Python's start for the processor.
   */
  async settled(): Promise<void> {
    if (this.state === "loading") {
      await new Promise<void>((resolve) => {
        const stop = this.subscribe(() => {
          if (this.state === "loading") return;
          stop();
          resolve();
        });
      });
    }
    await whenIdle();
  }

  /**
   * Resolves once Python has started (or failed to) and the runs and calls asked for
   * until then are done: the first output the reader asked for is on the page.
   */
  async drained(): Promise<void> {
    await this.start().catch(() => undefined);
    await this.queue;
  }

  /** Run code; requests run one after another in the order they were made. */
  run(request: RunRequest, onChunk: Pending["onChunk"]): Promise<CellResult> {
    return this.enqueue<CellResult>((id) => ({ type: "run", id, ...request }), onChunk);
  }

  /** Call `lessonkit.bridge` (consoles, …); queued like runs. Arguments and result as
   * `lessonkit.bridge.CALLS` declares them for `name` (frontend/src/generated/contract.ts). */
  call<N extends CallName>(name: N, args: Calls[N]["args"]): Promise<Calls[N]["result"]> {
    return this.enqueue<Calls[N]["result"]>((id) => ({ type: "call", id, name, args }) as ToWorker, () => undefined);
  }

  /**
   * `Stopp` while Python is still loading: end the runs and calls that wait for it
   * (CancelledError) but let the download go on. Nothing has reached Python yet, so
   * no variable is lost. Returns false when something already runs (then restart).
   */
  cancelQueued(): boolean {
    if (this.state !== "loading" || this.pending.size > 0) return false;
    this.cancels += 1;
    this.cancelWaiting?.(new CancelledError());
    this.cancelWaiting = null;
    return true;
  }

  /** Python's start, or CancelledError as soon as the reader cancels the waiting runs. */
  private startOrCancel(): Promise<void> {
    const cancelled = new Promise<never>((_, reject) => {
      const previous = this.cancelWaiting;
      this.cancelWaiting = (error) => {
        previous?.(error);
        reject(error);
      };
    });
    cancelled.catch(() => undefined);
    return Promise.race([this.start(), cancelled]);
  }

  private enqueue<T>(message: (id: number) => ToWorker, onChunk: Pending["onChunk"]): Promise<T> {
    const epoch = this.epoch;
    const cancels = this.cancels;
    this.inFlight += 1;
    const job = this.queue.then(async () => {
      if (epoch !== this.epoch) throw new RestartedError();
      if (cancels !== this.cancels) throw new CancelledError();
      await this.startOrCancel();
      if (epoch !== this.epoch) throw new RestartedError();
      if (cancels !== this.cancels) throw new CancelledError();
      return new Promise<T>((resolve, reject) => {
        const id = this.nextId++;
        this.pending.set(id, { onChunk, resolve: resolve as (value: never) => void, reject });
        this.send(message(id));
      });
    });
    this.queue = job.catch(() => undefined);
    void this.queue.then(() => {
      if (epoch === this.epoch) this.inFlight -= 1;
    });
    return job;
  }

  /**
   * Instant navigation showed another page: give it fresh namespaces and consoles
   * but keep Python. If the old page left something running (an endless loop,
   * a long cell), restart instead, so the new page does not wait for it.
   */
  newPage(): void {
    this.restartListeners.clear(); // the old page's blocks are gone
    this.finished.clear();
    if (this.inFlight > 0) this.restart();
    else this.resetNamespaces();
  }

  /** Forget all namespaces (a new page) without restarting Python. */
  resetNamespaces(): void {
    if (this.worker) this.send({ type: "reset" });
  }

  /**
   * Stop whatever runs: end the worker (and with it every background task), fail
   * pending runs, start a new worker, and tell the page's blocks why.
   */
  restart(reason: RestartReason = "stopp"): void {
    this.stop();
    void this.start().catch(() => undefined);
    // After the new start, so what the blocks ask for now (a console's replay) runs first.
    for (const listener of [...this.restartListeners]) listener(reason);
  }

  /** End the worker and fail what waits for it, without a new start (`restart` makes one). */
  stop(): void {
    this.worker?.terminate();
    this.worker = null;
    this.ready = null;
    this.abandonStart?.(new RestartedError()); // no effect once that start has finished
    this.abandonStart = null;
    this.cancelWaiting = null;
    this.queue = Promise.resolve();
    this.inFlight = 0;
    for (const pending of this.pending.values()) pending.reject(new RestartedError());
    this.pending.clear();
    this.finished.clear();
    this.epoch += 1;
    this.setState("idle");
  }

  /** Python died in `worker` (the current one): start again and say so. */
  private died(worker: Worker, message: string): void {
    if (worker !== this.worker) return;
    console.warn("lessonkit: Python ist abgestürzt und startet neu.", message);
    this.restart("absturz");
  }

  private send(message: ToWorker): void {
    this.worker?.postMessage(message);
  }

  private dispatch(message: FromWorker): void {
    if (message.type === "ready" || message.type === "dead" || message.type === "progress") return;
    if (message.type === "chunk" && message.id !== null && !this.pending.has(message.id)) {
      // A background task of a finished run writes: into the cell that started it.
      this.finished.get(message.id)?.(message.stream, message.text);
      return;
    }
    const pending = message.id === null ? undefined : this.pending.get(message.id);
    if (!pending) return;
    if (message.type === "chunk") {
      pending.onChunk(message.stream, message.text);
    } else if (message.type === "result") {
      this.pending.delete(message.id);
      this.finished.set(message.id, pending.onChunk);
      pending.resolve(message.result as never);
    } else if (message.type === "value") {
      this.pending.delete(message.id);
      pending.resolve(message.value as never);
    } else {
      this.pending.delete(message.id ?? -1);
      pending.reject(new PythonFailedError(message.message));
    }
  }

  private setState(state: RuntimeState): void {
    this.state = state;
    for (const listener of this.listeners) listener();
  }
}
