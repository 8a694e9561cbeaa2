/**
 * A run of Python code on the page: its `Ausführen` and `Stopp`, its status (the run's
 * one live region), the bytes of Python received while it loads (shown, not announced),
 * and its output (not a live region: the status announces the run, so announcing the
 * output too would say it twice). A cell (../cell) is one, and so is a prediction's own
 * run of its code (../exercise); a code task's `Ausführen` uses one without buttons of
 * its own (the task's buttons start and stop it).
 *
 * While a run waits or runs, its last output stays, marked as old (`data-stale`), until
 * new output arrives. Output that a run's background task writes after the run ended
 * comes into the same output (the runtime routes it by run).
 */
import type { Interruption, PythonRuntime, RunOutcome } from "../../runtime/python";
import { interruption, progressBytes, progressText, stoppedBy, unavailableText, unfinishedText } from "../../runtime/python";
import type { RunRequest } from "../../runtime/protocol";
import { button, setAvailable, statusRegion } from "../controls";
import { OutputView } from "../output/render";
import { restartButton } from "../restart";

export type RunState = "idle" | "queued" | "running" | "done" | "error" | "stopped";

const STATUS: Record<RunState, string> = {
  idle: "",
  queued: "Wartet …",
  running: "Läuft …",
  done: "Fertig",
  error: "Fehler",
  stopped: "Gestoppt",
};

/** A button's tooltip and accessible name (the name contains the visible label). */
export interface ButtonText {
  title: string;
  name: string;
}

/** What a run that did not finish shows: a notice in the output (null: the output stays),
 * the state and its status. */
export interface InterruptedView {
  notice: string | null;
  state: "error" | "stopped";
  status: string;
}

export interface RunPanelOptions {
  /** Where the output goes: a cell's `<output>` from the build, or `runOutput(…)`. */
  output: HTMLOutputElement;
  /** Its own `Ausführen` and `Stopp`; without them the host's buttons start and stop it. */
  buttons?: { run: ButtonText; stop: ButtonText; onRun: () => void };
  /** Whose `Stopp` stops this run (`PythonRuntime.stopp`): the panel's own by default. */
  owner?: object;
  /** Where the state shows as `data-state` (a cell's root: tests and CSS read it there). */
  stateOn?: HTMLElement;
  /** "Fertig (0,12 s)": the status counts the run's seconds (a cell). */
  timed?: boolean;
  /** The host's words for a run that did not finish (null: it says so itself, as a cell
   * does on a restart); `stoppedHere`: by the owner's own `Stopp`. `cellWords` by default. */
  interrupted?: (outcome: Interruption, stoppedHere: boolean) => InterruptedView | null;
}

/** A cell's words for a run that did not finish. A restart it hears of by itself
 * (`onRestart`), with what it means for the cells before it. */
export function cellWords(outcome: Interruption): InterruptedView | null {
  switch (outcome.kind) {
    case "restarted":
      return null;
    case "cancelled":
      return { notice: null, state: "stopped", status: "Abgebrochen: Python lädt weiter, nichts ist verloren" };
    case "failed":
      return { notice: unfinishedText("diesen Lauf", outcome.message), state: "error", status: "Python beschädigt" };
    case "unavailable":
      return { notice: unavailableText(outcome.message), state: "error", status: "Python nicht verfügbar" };
  }
}

/** A new output for a run: named (`name`), a group, not a live region. */
export function runOutput(name: string, className: string): HTMLOutputElement {
  const node = document.createElement("output");
  node.className = `lk-output ${className}`;
  node.setAttribute("role", "group");
  node.setAttribute("aria-live", "off");
  node.setAttribute("aria-label", name);
  return node;
}

export class RunPanel {
  readonly output: OutputView;
  readonly outputElement: HTMLOutputElement;
  /** The run's one live region. */
  readonly status: HTMLSpanElement;
  /** Bytes of Python received while it loads: visible, not announced (it changes often). */
  readonly progress: HTMLSpanElement;
  readonly runButton: HTMLButtonElement | null = null;
  readonly stopButton: HTMLButtonElement | null = null;
  state: RunState = "idle";
  private readonly owner: object;
  /** A prerequisite of a later cell: its status is not announced. */
  private quiet = false;
  /** When this run started (or Python became ready for it). */
  private started = 0;

  constructor(
    private readonly runtime: PythonRuntime,
    private readonly options: RunPanelOptions,
  ) {
    this.owner = options.owner ?? this;
    this.outputElement = options.output;
    this.output = new OutputView(options.output);
    this.status = statusRegion("lk-cell__status");
    this.progress = document.createElement("span");
    this.progress.className = "lk-cell__progress";
    this.progress.setAttribute("aria-hidden", "true");
    const buttons = options.buttons;
    if (buttons) {
      this.runButton = button("Ausführen", "lk-button--run", buttons.run.title, buttons.run.name);
      this.stopButton = button("Stopp", "lk-button--stop", buttons.stop.title, buttons.stop.name);
      this.runButton.addEventListener("click", () => buttons.onRun());
      // While Python loads only the waiting runs end; focus stays on the panel, on Ausführen.
      this.stopButton.addEventListener("click", () => {
        runtime.stopp(this.owner);
        this.focusRun();
      });
    }
    this.setState("idle");
  }

  /** The panel's controls in their order, `extra` (a cell's Zurücksetzen) after Stopp. */
  controls(...extra: Node[]): Node[] {
    const own = [this.runButton, this.stopButton].filter((node): node is HTMLButtonElement => node !== null);
    return [...own, ...extra, this.status, this.progress];
  }

  setState(state: RunState, detail = ""): void {
    this.state = state;
    if (this.options.stateOn) this.options.stateOn.dataset["state"] = state;
    // A prerequisite cell stays silent: the reader asked for the later cell.
    this.status.setAttribute("aria-live", this.quiet ? "off" : "polite");
    this.status.textContent = detail || STATUS[state];
    this.progress.textContent = "";
    const busy = state === "queued" || state === "running";
    if (this.stopButton) setAvailable(this.stopButton, busy);
    if (this.runButton) setAvailable(this.runButton, !busy);
    if (!busy) delete this.outputElement.dataset["stale"];
  }

  /** Run as a prerequisite of a later cell (quiet) or as the run the reader asked for. */
  setQuiet(quiet: boolean): void {
    this.quiet = quiet;
  }

  /** Waiting for its turn: the last output stays (marked as old) until new output arrives. */
  markQueued(): void {
    this.setState("queued");
    this.markStale();
  }

  /**
   * While Python loads, the status says so ("Python wird geladen …", then "Python
   * startet …") and the bytes received show beside it.
   */
  watchLoading(): void {
    const runtime = this.runtime;
    const show = (): boolean => {
      const state = this.state;
      if (state !== "running" && state !== "queued") return false;
      if (runtime.state === "loading") {
        const phase = progressText(runtime.progress);
        if (this.status.textContent !== phase) this.status.textContent = phase;
        this.progress.textContent = progressBytes(runtime.progress);
        return true;
      }
      if (runtime.state === "ready") {
        this.started = performance.now(); // "Fertig (… s)" counts the run, not the download
        this.setState(state);
      }
      return false;
    };
    if (!show()) return;
    const stop = runtime.subscribe(() => {
      if (!show()) stop();
    });
  }

  /**
   * Run `request` (after `before`, e.g. a code task's preparation) and show how it
   * ended: the result, or the host's words for an interruption.
   */
  async run(request: RunRequest, before?: () => Promise<void>): Promise<RunOutcome> {
    const runtime = this.runtime;
    this.markStale();
    if (runtime.state === "ready") {
      this.setState("running");
    } else {
      void runtime.start().catch(() => undefined);
      this.setState("running", progressText(runtime.progress));
      this.watchLoading();
    }
    this.started = performance.now();
    let first = true;
    let done = false;
    let outcome: RunOutcome | null = null;
    try {
      await before?.();
    } catch (error) {
      outcome = interruption(error);
    }
    outcome ??= await runtime.run(request, (stream, text) => {
      // Chunks after the result come from a background task this run started.
      if (first && !done) this.output.clear();
      first = false;
      this.output.appendChunk(stream, text);
    });
    done = true;
    this.show(outcome);
    return outcome;
  }

  /** Nothing shown: a check's verdict now speaks for the code. */
  clear(): void {
    this.output.clear();
    this.setState("idle");
  }

  focusRun(): void {
    this.runButton?.focus();
  }

  private markStale(): void {
    if (this.outputElement.childNodes.length > 0) this.outputElement.dataset["stale"] = "true";
  }

  private show(outcome: RunOutcome): void {
    if (outcome.kind === "done") {
      this.output.showResult(outcome.result);
      const failed = outcome.result.error !== null;
      const word = failed ? "Fehler" : "Fertig";
      const seconds = ((performance.now() - this.started) / 1000).toFixed(2).replace(".", ",");
      this.setState(failed ? "error" : "done", this.options.timed ? `${word} (${seconds} s)` : word);
      return;
    }
    const view = (this.options.interrupted ?? cellWords)(outcome, stoppedBy(outcome, this.owner));
    if (!view) return;
    if (view.notice !== null) {
      this.output.clear();
      this.output.showNotice(view.notice, "warning");
      if (outcome.kind === "failed") this.outputElement.lastElementChild?.append(" ", restartButton(this.runtime));
    }
    this.setState(view.state, view.status);
  }
}

/** Mount a run panel; its host places `controls()` and the output. */
export function mountRunPanel(runtime: PythonRuntime, options: RunPanelOptions): RunPanel {
  return new RunPanel(runtime, options);
}
