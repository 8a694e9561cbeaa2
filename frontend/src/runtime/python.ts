/**
 * The page's connection to Python: one worker, started on first need or when
 * the page is idle, and restarted when the reader stops a running block, presses
 * "Python neu starten", or Python dies under a run. A restart is an event every
 * block of the page handles (`onRestart`): nothing the reader did is lost unsaid.
 */
import { whenIdle } from "./idle";
import type { CallName, Calls } from "../generated/contract";
import { FLOOD_MESSAGES, FloodGuard } from "./flood";
import { checkMessage } from "./incoming";
import { pythonWorker } from "./sandboxed-worker";
import type { CellResult, FromWorker, RunRequest, ToWorker } from "./protocol";

export type RuntimeState = "idle" | "loading" | "ready" | "broken";

/** Why Python was restarted: a block's `Stopp`, the page's button, Python died, the
 * reader's code ended its worker (`close()`, worker/sandbox.ts), flooded the page with
 * messages (./flood.ts) or used up Python's memory. */
export type RestartReason = "stopp" | "neustart" | "absturz" | "beendet" | "flut" | "speicher";

/** Python's memory was used up, in the reader's words (the restart's notes add what follows). */
export const MEMORY_TEXT =
  "Python hatte keinen freien Speicher mehr (MemoryError: Der Code hat so viel behalten, wie der " +
  "Browser Python gibt) und wurde neu gestartet, damit es wieder antwortet.";

/** What a flood of messages is, in the reader's words (the restart's notes add what follows). */
export const FLOOD_TEXT =
  `Der Code hat die Seite mit Nachrichten überflutet (mehr als ${FLOOD_MESSAGES.toLocaleString("de-DE")} ` +
  "in einer Sekunde, zum Beispiel js.postMessage in einer Schleife). Damit die Seite bedienbar bleibt, " +
  "wurde Python beendet und neu gestartet.";

/**
 * Why a run or call gave no result. Every caller tells the reader in its own words
 * (a cell, a check, a console), from this one description.
 */
export type Interruption =
  /** Python was restarted before it ended; `by` is the block whose `Stopp` did it
   * (`stopp(by)`), null for the page's button, a crash or a page left. */
  | { kind: "restarted"; reason: RestartReason; by: object | null }
  /** `Stopp` while Python still loaded: nothing ran, nothing is lost, Python loads on. */
  | { kind: "cancelled"; by: object | null }
  /** Python itself could not carry it out after it had started (not an error of the
   * reader's code, which is part of the result): Python is damaged. */
  | { kind: "failed"; message: string }
  /** Python could not start. */
  | { kind: "unavailable"; message: string };

/** How a run ended: with its result, or interrupted. `run` never rejects. */
export type RunOutcome = { kind: "done"; result: CellResult } | Interruption;

/** A call's interruption, thrown: a call's result is needed to go on (a check, a console). */
export class Interrupted extends Error {
  constructor(readonly outcome: Interruption) {
    super(`Python: ${outcome.kind}`);
  }
}

/** What a value thrown while calling Python means; anything but `Interrupted` is a
 * Python that is not there (the reader can only load the page again). */
export function interruption(error: unknown): Interruption {
  if (error instanceof Interrupted) return error.outcome;
  return { kind: "unavailable", message: error instanceof Error ? error.message : String(error) };
}

/** Did `owner`'s own `Stopp` end it (restart or cancel)? */
export function stoppedBy(outcome: Interruption, owner: object): boolean {
  return (outcome.kind === "restarted" || outcome.kind === "cancelled") && outcome.by === owner;
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
export function unavailableText(reason: string): string {
  return (
    `Python konnte nicht gestartet werden (${reason.replace(/\.$/, "")}). Lade die Seite neu; ` +
    "das hilft meistens. Mögliche Gründe: keine Verbindung, bevor Python einmal gespeichert war; " +
    "ein Blocker, der Web Worker oder WebAssembly verbietet; zu wenig freier Speicher auf dem Gerät. " +
    "Hilft das Neuladen nicht, probier einen anderen Browser."
  );
}

/**
 * Python took up a run or call and did not finish it (`failed`): `what` names it,
 * "diesen Lauf" for a run, "das" for a check.
 */
export function unfinishedText(what: string, message: string): string {
  return (
    `Python hat ${what} nicht zu Ende gebracht. Vielleicht hat Code Python selbst verändert ` +
    `(zum Beispiel eingebaute Funktionen gelöscht). Meldung: ${message}`
  );
}

/** After a restart, with its reason and the block whose `Stopp` caused it (if any). */
export type RestartListener = (reason: RestartReason, by: object | null) => void;

/** A run's or call's value, or why there is none. */
type Settled<T> = { kind: "done"; value: T } | Interruption;

interface Pending {
  onChunk: (stream: string, text: string) => void;
  settle: (outcome: Settled<never>) => void;
}

/** Calls that run code the reader wrote (a code task's answer, a challenge's node, the workbench). */
const READER_CODE_CALLS = new Set<CallName>(["exercise.check_code", "challenge.seed", "challenge.replay", "workbench.seed"]);

/** Python's start ended by `stop()` or `cancelQueued()`, not by a failure of its own. */
class StartEnded extends Error {}

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
  /** Increases on every restart: a request made before one ends `restarted`. */
  epoch = 0;
  state: RuntimeState = "idle";
  /** Seconds from starting the worker until Python was ready (for the benchmark). */
  readySeconds: number | null = null;
  /** Milliseconds since the worker started at which each boot stage ended (for the benchmark). */
  readyStages: Record<string, number> = {};
  /** `performance.now()` of the page when Python reported ready (for the benchmark). */
  readyAt: number | null = null;
  /** Why the newest start failed, as the worker said (null: it did not fail). */
  startFailure: string | null = null;
  /** How far the current start is (null before the worker's first report). */
  progress: LoadProgress | null = null;
  /** Increases on every `cancelQueued()`: requests queued before it end `cancelled`. */
  private cancels = 0;
  /** Ends the runs that wait for Python's start (`cancelQueued`). */
  private cancelWaiting: ((error: Error) => void) | null = null;
  /** How the newest restart and the newest cancel ended what they ended. */
  private lastRestart: Interruption = { kind: "restarted", reason: "neustart", by: null };
  private lastCancel: Interruption = { kind: "cancelled", by: null };

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
  /** What the author published (`publish`): code the worker may run and still serve other pages. */
  private readonly published = new Set<string>();
  /** The current worker was given code that is not the author's (`ranReaderCode`). */
  private readerCode = false;

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
    const worker = early?.worker ?? pythonWorker(this.workerUrl);
    this.worker = worker;
    this.progress = null;
    this.startFailure = null;
    this.setState("loading");
    const guard = new FloodGuard();
    this.ready = new Promise<void>((resolve, reject) => {
      this.abandonStart = reject;
      worker.onmessage = (event: MessageEvent<unknown>) => {
        if (guard.arrived(performance.now())) {
          this.flooded(worker);
          return;
        }
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
          // Why the start failed, for the page (a worker of another deployment: index.ts).
          if (this.state === "loading") this.startFailure = message.message;
          this.setState("broken");
          reject(new Error(message.message));
        } else if (message.type === "dead") {
          this.died(worker, message.message);
        } else if (message.type === "closed") {
          this.died(worker, "close()", "beendet");
        } else if (message.type === "exhausted") {
          if (worker === this.worker) this.restart("speicher");
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

  /**
   * Code the author published on this site (a cell's, as the page shows it): running it
   * keeps the worker fit to serve the next page (`newPage`).
   */
  publish(code: string): void {
    this.published.add(code);
  }

  /**
   * Has the current worker been given code that is not the author's (an edited cell, a
   * code task's or a challenge's answer, the workbench)? Such code can wrap the worker's
   * own message handling and read or answer what a later page sends (issue 49), or change
   * the judging: the worker serves only the page it ran on (`newPage` replaces it).
   */
  get ranReaderCode(): boolean {
    return this.readerCode;
  }

  /** Run code; requests run one after another in the order they were made. Resolves
   * with the result or with why there is none (never rejects). */
  async run(request: RunRequest, onChunk: Pending["onChunk"]): Promise<RunOutcome> {
    if (!this.published.has(request.code)) this.readerCode = true;
    const outcome = await this.enqueue<CellResult>((id) => ({ type: "run", id, ...request }), onChunk);
    return outcome.kind === "done" ? { kind: "done", result: outcome.value } : outcome;
  }

  /** Call `lessonkit.runtime.bridge` (consoles, …); queued like runs. Arguments and result as
   * `lessonkit.runtime.bridge.CALLS` declares them for `name` (frontend/src/generated/contract.ts).
   * Rejects with `Interrupted` when there is no result. */
  async call<N extends CallName>(name: N, args: Calls[N]["args"]): Promise<Calls[N]["result"]> {
    if (READER_CODE_CALLS.has(name)) this.readerCode = true;
    const outcome = await this.enqueue<Calls[N]["result"]>((id) => ({ type: "call", id, name, args }) as ToWorker, () => undefined);
    if (outcome.kind !== "done") throw new Interrupted(outcome);
    return outcome.value;
  }

  /**
   * A block's `Stopp` (`by`: the block, as the restart event and the interrupted runs
   * name it). While Python still loads nothing runs yet: only the runs and calls that
   * wait for it end (`cancelled`), the download goes on and no variable is lost.
   * Otherwise Python restarts, and every block hears of it.
   */
  stopp(by: object): void {
    if (!this.cancelQueued(by)) this.restart("stopp", by);
  }

  /**
   * `Stopp` while Python is still loading: end the runs and calls that wait for it
   * (`cancelled`) but let the download go on. Returns false when something already
   * runs (then only a restart stops it).
   */
  cancelQueued(by: object | null = null): boolean {
    if (this.state !== "loading" || this.pending.size > 0) return false;
    this.cancels += 1;
    this.lastCancel = { kind: "cancelled", by };
    this.cancelWaiting?.(new StartEnded());
    this.cancelWaiting = null;
    return true;
  }

  /** Python's start, or `StartEnded` as soon as the reader cancels the waiting runs. */
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

  /** What ended a request made at `epoch` and `cancels`, if anything did since. */
  private endedSince(epoch: number, cancels: number): Interruption | null {
    if (epoch !== this.epoch) return this.lastRestart;
    if (cancels !== this.cancels) return this.lastCancel;
    return null;
  }

  /** Queue a request; it settles with its value or its interruption, never rejects. */
  private enqueue<T>(message: (id: number) => ToWorker, onChunk: Pending["onChunk"]): Promise<Settled<T>> {
    const epoch = this.epoch;
    const cancels = this.cancels;
    this.inFlight += 1;
    const job = this.queue.then(async (): Promise<Settled<T>> => {
      const before = this.endedSince(epoch, cancels);
      if (before) return before;
      try {
        await this.startOrCancel();
      } catch (error) {
        const ended = this.endedSince(epoch, cancels);
        if (ended) return ended;
        return { kind: "unavailable", message: error instanceof Error ? error.message : String(error) };
      }
      const after = this.endedSince(epoch, cancels);
      if (after) return after;
      return new Promise<Settled<T>>((resolve) => {
        const id = this.nextId++;
        this.pending.set(id, { onChunk, settle: resolve as Pending["settle"] });
        this.send(message(id));
      });
    });
    this.queue = job.then(() => undefined);
    void this.queue.then(() => {
      if (epoch === this.epoch) this.inFlight -= 1;
    });
    return job;
  }

  /**
   * Instant navigation showed another page: give it fresh namespaces and consoles
   * but keep Python. If the old page left something running (an endless loop,
   * a long cell), restart instead, so the new page does not wait for it; likewise when
   * the worker ran the reader's own code (`ranReaderCode`): that code may still listen
   * in it, so the next page gets a fresh one.
   */
  newPage(): void {
    this.restartListeners.clear(); // the old page's blocks are gone
    this.finished.clear();
    if (this.inFlight > 0 || this.readerCode) this.restart("neustart");
    else this.resetNamespaces();
  }

  /** Forget all namespaces (a new page) without restarting Python. */
  resetNamespaces(): void {
    if (this.worker) this.send({ type: "reset" });
  }

  /**
   * Stop whatever runs: end the worker (and with it every background task), end
   * pending runs (`restarted`), start a new worker, and tell the page's blocks why
   * (`by`: the block whose `Stopp` it was, see `stopp`).
   */
  restart(reason: RestartReason, by: object | null = null): void {
    this.stop(reason, by);
    void this.start().catch(() => undefined);
    // After the new start, so what the blocks ask for now (a console's replay) runs first.
    for (const listener of [...this.restartListeners]) listener(reason, by);
  }

  /** End the worker and what waits for it (`restarted` with `reason`), without a new
   * start (`restart` makes one; a page left while Python loads only stops). */
  stop(reason: RestartReason = "neustart", by: object | null = null): void {
    const ended: Interruption = { kind: "restarted", reason, by };
    this.lastRestart = ended;
    this.worker?.terminate();
    this.worker = null;
    this.readerCode = false;
    this.ready = null;
    this.abandonStart?.(new StartEnded()); // no effect once that start has finished
    this.abandonStart = null;
    this.cancelWaiting = null;
    this.queue = Promise.resolve();
    this.inFlight = 0;
    for (const pending of this.pending.values()) pending.settle(ended);
    this.pending.clear();
    this.finished.clear();
    this.epoch += 1;
    this.setState("idle");
  }

  /** Python died (or was ended) in `worker` (the current one): start again and say so. */
  private died(worker: Worker, message: string, reason: RestartReason = "absturz"): void {
    if (worker !== this.worker) return;
    console.warn("lessonkit: Python ist abgestürzt und startet neu.", message);
    this.restart(reason);
  }

  /** The reader's code in `worker` floods the page with messages: end it (what it has
   * queued for the page is not handled any more) and start again, saying why. */
  private flooded(worker: Worker): void {
    worker.onmessage = null;
    if (worker !== this.worker) return;
    console.warn("lessonkit: Python überflutet die Seite mit Nachrichten und startet neu.");
    this.restart("flut");
  }

  private send(message: ToWorker): void {
    this.worker?.postMessage(message);
  }

  private dispatch(message: FromWorker): void {
    if (message.type === "ready" || message.type === "dead" || message.type === "progress" || message.type === "closed" || message.type === "exhausted") return;
    if (message.type === "chunk" || message.type === "chunks") {
      // Output of its run, or of a background task of a finished run: into the cell that started it.
      const onChunk = this.pending.get(message.id)?.onChunk ?? this.finished.get(message.id);
      if (!onChunk) return;
      if (message.type === "chunk") onChunk(message.stream, message.text);
      else for (const [stream, text] of message.parts) onChunk(stream, text);
      return;
    }
    const pending = message.id === null ? undefined : this.pending.get(message.id);
    if (!pending) return;
    if (message.type === "result") {
      this.pending.delete(message.id);
      this.finished.set(message.id, pending.onChunk);
      pending.settle({ kind: "done", value: message.result as never });
    } else if (message.type === "value") {
      this.pending.delete(message.id);
      pending.settle({ kind: "done", value: message.value as never });
    } else {
      this.pending.delete(message.id ?? -1);
      pending.settle({ kind: "failed", message: message.message });
    }
  }

  private setState(state: RuntimeState): void {
    this.state = state;
    for (const listener of this.listeners) listener();
  }
}
