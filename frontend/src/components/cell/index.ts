/**
 * A runnable Python cell: mounts onto the markup that `lessonkit/render.py`
 * writes, adds the editor and the buttons, and runs code in the page's worker.
 *
 * Notebook semantics: cells of one session share a namespace. Running a cell
 * first runs the earlier cells of its session that have not run since Python
 * (re)started, so a reader can start anywhere on the page.
 *
 * Hidden checks of the prose (`check`, lessonkit/fences.py) run after the cell
 * they follow; when the reader's change makes one fail, the page says so kindly
 * and the next cell still runs (later cells need nothing from a check).
 */
import type { PythonRuntime, RestartReason } from "../../runtime/python";
import { CancelledError, PythonFailedError, RestartedError, progressBytes, progressText, unavailableText } from "../../runtime/python";
import { button, setAvailable, statusRegion } from "../controls";
import { OutputView } from "../output/render";
import type { CellEditor } from "./editor";
import { DraftStore } from "./storage";
import { readData } from "../data";
import type { CellData } from "../../generated/contract";

type CellState = "idle" | "queued" | "running" | "done" | "error" | "stopped";

const STATUS: Record<CellState, string> = {
  idle: "",
  queued: "Wartet …",
  running: "Läuft …",
  done: "Fertig",
  error: "Fehler",
  stopped: "Gestoppt",
};

/** A "Python neu starten" button for a notice: the way back when Python is damaged. */
export function restartButton(runtime: PythonRuntime): HTMLButtonElement {
  const node = button("Python neu starten", "lk-button--small lk-button--restart", "Python neu starten: alle Variablen der Seite sind danach weg");
  node.addEventListener("click", () => runtime.restart("neustart"));
  return node;
}

const RESTARTED: Record<RestartReason, string> = {
  stopp: "Python wurde neu gestartet, bevor diese Zelle fertig war (Stopp an einer anderen Stelle).",
  neustart: "Python wurde neu gestartet, bevor diese Zelle fertig war.",
  absturz:
    "Python ist bei diesem Lauf abgestürzt (zum Beispiel durch os._exit() oder eine sehr tiefe " +
    "Rekursion) und wurde neu gestartet.",
};

/** One mounted cell. */
export class Cell {
  readonly data: CellData;
  /** The runtime epoch in which this cell last ran (null: not since Python started). */
  ranInEpoch: number | null = null;

  private editor: CellEditor | null = null;
  private readonly output: OutputView;
  private readonly outputElement: HTMLOutputElement;
  private readonly buildOutput: Node[];
  private readonly status: HTMLSpanElement;
  /** Bytes of Python received while it loads: visible, not announced (it changes often). */
  private readonly progress: HTMLSpanElement;
  private readonly runButton: HTMLButtonElement;
  private readonly stopButton: HTMLButtonElement;
  private readonly resetButton: HTMLButtonElement;
  private readonly drafts: DraftStore;
  private code: string;
  /** Runs as a prerequisite of a later cell: its status is not announced. */
  private quiet = false;
  /** When this cell's run started (or Python became ready for it). */
  private runStarted = 0;

  constructor(
    readonly root: HTMLElement,
    private readonly page: CellPage,
    index: number,
  ) {
    this.data = readData(root, ".lk-cell__data", {} as CellData);
    this.outputElement = root.querySelector<HTMLOutputElement>("output.lk-output")!;
    this.buildOutput = [...this.outputElement.childNodes];
    this.output = new OutputView(this.outputElement);
    this.drafts = new DraftStore(location.pathname, index, this.data.code);
    this.code = this.drafts.load() ?? this.data.code;

    const label = this.data.label;
    this.runButton = button("Ausführen", "lk-button--run", "Ausführen (Umschalt+Enter)", `${label} ausführen`);
    this.stopButton = button("Stopp", "lk-button--stop", "Laufende Zelle stoppen", `Stopp: ${label}`);
    this.resetButton = button(
      "Zurücksetzen",
      "lk-button--reset",
      "Code und Ergebnis der Autorin wiederherstellen",
      `${label} zurücksetzen`,
    );
    setAvailable(this.stopButton, false);
    // The block's one live region: its status, never its output (announced twice before).
    this.status = statusRegion("lk-cell__status");
    this.progress = document.createElement("span");
    this.progress.className = "lk-cell__progress";
    this.progress.setAttribute("aria-hidden", "true");

    const bar = document.createElement("div");
    bar.className = "lk-cell__bar";
    bar.append(this.runButton, this.stopButton, this.resetButton, this.status, this.progress);
    root.querySelector(".lk-cell__code")?.after(bar);

    this.runButton.addEventListener("click", () => void this.page.run(this));
    this.stopButton.addEventListener("click", () => this.page.stop(this));
    this.resetButton.addEventListener("click", () => this.reset());
    root.dataset["lkMounted"] = "true";
    this.setState("idle");
    if (this.code !== this.data.code) {
      // The build's output below belongs to the author's code, not to the restored draft.
      this.output.showNotice(
        "Deine geänderte Fassung dieser Zelle wurde wiederhergestellt. Das Ergebnis darunter " +
          "gehört noch zum ursprünglichen Code; „Ausführen“ zeigt das deiner Fassung, " +
          "„Zurücksetzen“ holt den ursprünglichen Code zurück.",
        "info",
        "start",
      );
      if (this.buildOutput.length > 0) this.outputElement.dataset["stale"] = "true";
    }
  }

  /** Replace the static code with the editor (loaded on demand). */
  async mountEditor(): Promise<void> {
    if (this.data.hidden) return;
    const { createEditor } = await import("./editor");
    const host = this.root.querySelector<HTMLElement>(".lk-cell__code");
    if (!host) return;
    host.replaceChildren();
    this.editor = createEditor(host, {
      code: this.code,
      label: this.data.label,
      onRun: () => void this.page.run(this),
      onChange: (code) => {
        this.code = code;
        if (code === this.data.code) this.drafts.clear();
        else if (!this.drafts.save(code)) this.page.warnStorage(this);
      },
    });
  }

  /** The code to run now: the reader's version. */
  currentCode(): string {
    return this.editor?.getCode() ?? this.code;
  }

  setState(state: CellState, detail = ""): void {
    this.root.dataset["state"] = state;
    // Prerequisite cells stay silent: the reader asked for the later cell.
    this.status.setAttribute("aria-live", this.quiet ? "off" : "polite");
    this.status.textContent = detail || STATUS[state];
    this.progress.textContent = "";
    const busy = state === "queued" || state === "running";
    setAvailable(this.stopButton, busy);
    setAvailable(this.runButton, !busy);
    if (!busy) delete this.outputElement.dataset["stale"];
  }

  /** Run as a prerequisite of a later cell (quiet) or as the cell the reader asked for. */
  setQuiet(quiet: boolean): void {
    this.quiet = quiet;
  }

  /**
   * While Python loads, the status says so ("Python wird geladen …", then "Python
   * startet …") and the bytes received show beside it.
   */
  watchLoading(runtime: PythonRuntime): void {
    const show = (): boolean => {
      const state = this.root.dataset["state"];
      if (state !== "running" && state !== "queued") return false;
      if (runtime.state === "loading") {
        const phase = progressText(runtime.progress);
        if (this.status.textContent !== phase) this.status.textContent = phase;
        this.progress.textContent = progressBytes(runtime.progress);
        return true;
      }
      if (runtime.state === "ready") {
        this.runStarted = performance.now(); // "Fertig (… s)" counts the run, not the download
        this.setState(state);
      }
      return false;
    };
    if (!show()) return;
    const stop = runtime.subscribe(() => {
      if (!show()) stop();
    });
  }

  /** Run this cell's code in the runtime (the page decides what runs first). */
  async execute(runtime: PythonRuntime): Promise<boolean> {
    if (runtime.state !== "ready") {
      this.setState("running", progressText(runtime.progress));
      this.watchLoading(runtime);
      void runtime.start().catch(() => undefined);
    }
    this.runStarted = performance.now();
    let first = true;
    let done = false;
    try {
      const result = await runtime.run(
        { session: this.data.session, code: this.currentCode(), label: this.data.label },
        (stream, text) => {
          // Chunks after the result come from a background task this run started.
          if (first && !done) this.output.clear();
          first = false;
          this.output.appendChunk(stream, text);
        },
      );
      done = true;
      this.ranInEpoch = runtime.epoch;
      this.output.showResult(result);
      const seconds = ((performance.now() - this.runStarted) / 1000).toFixed(2).replace(".", ",");
      const failed = result.error !== null;
      this.setState(failed ? "error" : "done", `${failed ? "Fehler" : "Fertig"} (${seconds} s)`);
      return !failed || result.error_type === this.data.raises;
    } catch (error) {
      if (error instanceof RestartedError) {
        // Stopped: `forget()` already told the reader; keep its state.
      } else if (error instanceof CancelledError) {
        // Stopp while Python loaded: nothing ran; the last output stays.
        this.setState("stopped", "Abgebrochen: Python lädt weiter, nichts ist verloren");
      } else if (error instanceof PythonFailedError) {
        this.output.clear();
        this.output.showNotice(
          "Python hat diesen Lauf nicht zu Ende gebracht. Vielleicht hat Code Python selbst " +
            `verändert (zum Beispiel eingebaute Funktionen gelöscht). Meldung: ${error.message}`,
          "warning",
        );
        this.outputElement.lastElementChild?.append(" ", restartButton(runtime));
        this.setState("error", "Python beschädigt");
      } else {
        this.output.clear();
        this.output.showNotice(unavailableText(error), "warning");
        this.setState("error", "Python nicht verfügbar");
      }
      return false;
    }
  }

  /** Waiting for its turn: the last output stays (marked as old) until new output arrives. */
  markQueued(): void {
    this.setState("queued", "Wartet …");
    if (this.outputElement.childNodes.length > 0) this.outputElement.dataset["stale"] = "true";
  }

  markRunning(): void {
    this.setState("running");
  }

  /** Python was restarted: this cell's effects are gone; say so where it mattered. */
  forget(stoppedHere: boolean, reason: RestartReason): void {
    this.ranInEpoch = null;
    const state = this.root.dataset["state"];
    const interrupted = state === "running" || state === "queued";
    const next = "Alle Variablen der Seite sind weg; beim nächsten Ausführen laufen die Zellen davor automatisch noch einmal.";
    if (stoppedHere) {
      this.output.clear();
      this.output.showNotice(`Gestoppt. Python wurde neu gestartet. ${next}`, "warning");
      this.setState("stopped");
    } else if (interrupted && !this.data.hidden) {
      this.output.clear();
      this.output.showNotice(`${RESTARTED[reason]} ${next}`, "warning");
      this.setState(reason === "absturz" && state === "running" ? "error" : "stopped", reason === "absturz" ? "Abgestürzt" : "Gestoppt");
    } else if (state !== "idle") {
      this.setState("idle", "Python neu gestartet");
    }
  }

  /** A hidden check after this cell failed: the reader's change gives another result. */
  noteCheckFailed(): void {
    this.root.querySelector(".lk-cell__check-note")?.remove();
    const edited = this.currentCode() !== this.data.code;
    this.output.showNotice(
      edited
        ? "Dein geänderter Code ergibt etwas anderes, als der Text beschreibt. Das ist kein " +
            "Fehler: Die nächsten Zellen laufen trotzdem, nur passen manche Zahlen im Text " +
            "dann nicht mehr. „Zurücksetzen“ holt den ursprünglichen Code zurück."
        : "Das Ergebnis weicht von dem ab, was der Text beschreibt, wohl wegen einer Änderung " +
            "weiter oben. Die nächsten Zellen laufen trotzdem.",
    );
    this.outputElement.lastElementChild?.classList.add("lk-cell__check-note");
  }

  focusRun(): void {
    this.runButton.focus();
  }

  private reset(): void {
    this.code = this.data.code;
    this.editor?.setCode(this.data.code);
    this.drafts.clear();
    this.outputElement.replaceChildren(...this.buildOutput.map((node) => node.cloneNode(true)));
    this.setState("idle");
  }
}

/** All cells of a page and the order in which they run. */
export class CellPage {
  readonly cells: Cell[] = [];
  private storageWarned = false;
  /** The cell whose `Stopp` caused the coming restart. */
  private stoppedBy: Cell | null = null;

  constructor(private readonly runtime: PythonRuntime) {
    runtime.onRestart((reason) => {
      for (const cell of this.cells) cell.forget(cell === this.stoppedBy, reason);
      this.stoppedBy = null;
    });
  }

  mount(roots: HTMLElement[]): void {
    roots.forEach((root, index) => this.cells.push(new Cell(root, this, index)));
    if (this.cells.length === 0) return;
    this.mountEditorsWhenVisible();
  }

  /**
   * Swap in the editor only for cells near the viewport: a long lesson does not
   * build twenty editors at once while Python is starting.
   */
  private mountEditorsWhenVisible(): void {
    const byRoot = new Map(this.cells.map((cell) => [cell.root, cell]));
    const observer = new IntersectionObserver(
      (entries) => {
        for (const entry of entries) {
          if (!entry.isIntersecting) continue;
          observer.unobserve(entry.target);
          void byRoot.get(entry.target as HTMLElement)?.mountEditor();
        }
      },
      { rootMargin: "400px 0px" },
    );
    for (const cell of this.cells) observer.observe(cell.root);
  }

  /**
   * Run `target`, after the earlier cells of its session that have not run yet, then
   * the checks that follow it. A failing check stops nothing (see `checkFailed`).
   */
  async run(target: Cell): Promise<void> {
    const epoch = this.runtime.epoch;
    const session = this.cells.filter((cell) => cell.data.session === target.data.session);
    const position = session.indexOf(target);
    const before = session.slice(0, position).filter((cell) => cell.ranInEpoch !== epoch);
    const checks: Cell[] = [];
    for (const cell of session.slice(position + 1)) {
      if (!cell.data.check) break;
      checks.push(cell);
    }
    const cancels = this.runtime.cancels;
    for (const cell of before) cell.setQuiet(true);
    target.setQuiet(false);
    for (const cell of [...before, target]) cell.markQueued();
    if (this.runtime.state !== "ready") target.watchLoading(this.runtime);
    for (const cell of before) {
      cell.markRunning();
      const ok = await cell.execute(this.runtime);
      if (this.runtime.cancels !== cancels) {
        // Stopp while Python loaded: the cells still waiting end too.
        for (const rest of [...before, target]) if (rest.root.dataset["state"] === "queued") rest.setState("idle");
        target.setState("stopped", "Abgebrochen: Python lädt weiter, nichts ist verloren");
        return;
      }
      if (this.runtime.epoch !== epoch) return; // stopped meanwhile: every cell was told
      if (!ok && cell.data.check) {
        this.checkFailed(cell, session, target);
      } else if (!ok) {
        target.setState("error", `Abgebrochen: ${cell.data.label} davor schlug fehl`);
        for (const rest of before.slice(before.indexOf(cell) + 1)) rest.setState("idle");
        return;
      }
    }
    target.markRunning();
    if (!(await target.execute(this.runtime))) return;
    for (const check of checks) {
      const ok = await check.execute(this.runtime);
      if (this.runtime.epoch !== epoch) return;
      if (!ok) {
        this.checkFailed(check, session, target);
        return;
      }
    }
  }

  /** A check failed: the visible cell it checks (the one before it) says so kindly. */
  private checkFailed(check: Cell, session: Cell[], fallback: Cell): void {
    const shown = session.slice(0, session.indexOf(check)).filter((cell) => !cell.data.hidden);
    (shown[shown.length - 1] ?? fallback).noteCheckFailed();
  }

  /**
   * Stop the running cell: restart Python; every cell hears of it (`onRestart`).
   * While Python still loads nothing runs yet: only the waiting runs end, the
   * download goes on.
   */
  stop(target: Cell): void {
    if (this.runtime.cancelQueued()) {
      target.focusRun();
      return;
    }
    this.stoppedBy = target;
    this.runtime.restart("stopp");
    target.focusRun();
  }

  warnStorage(cell: Cell): void {
    if (this.storageWarned) return;
    this.storageWarned = true;
    cell.root.querySelector("output")?.insertAdjacentHTML(
      "beforeend",
      '<p class="lk-notice lk-notice--warning">Änderungen können in diesem Browser nicht gespeichert werden (Speicher voll oder gesperrt).</p>',
    );
  }
}

/** Mount every cell in `scope`. */
export function mountCells(scope: ParentNode, runtime: PythonRuntime): CellPage {
  const page = new CellPage(runtime);
  page.mount([...scope.querySelectorAll<HTMLElement>("[data-lk-cell]:not([data-lk-mounted])")]);
  return page;
}
