/**
 * Exercises: predictions, code tasks, console tasks and quizzes.
 *
 * Each mounts onto the markup of lessonkit/exercises.py (render_exercise),
 * checks in the page's Python worker through `lessonkit.bridge` (the same
 * checks the build ran to prove the exercise sound) and keeps the reader's
 * progress in localStorage (./progress.ts).
 */
import type { PythonRuntime } from "../../runtime/python";
import { CancelledError, PythonFailedError, RestartedError } from "../../runtime/python";
import { restartButton } from "../cell";
import { button, setAvailable, statusRegion } from "../controls";
import type { CellEditor } from "../cell/editor";
import { OutputView } from "../output/render";
import type { CodeTaskData, ConsoleData, ConsoleTaskData, ExerciseData, PredictionData, QuizData } from "../../generated/contract";
import { Feedback } from "./feedback";
import { type Progress, ProgressStore, storageAvailable } from "./progress";
import { readData } from "../data";

/** What all four kinds share: data, feedback, progress, hints, the hidden solution. */
abstract class Exercise<D extends ExerciseData = ExerciseData> {
  readonly data: D;
  protected readonly feedback: Feedback;
  protected readonly progress: ProgressStore;
  protected readonly bar: HTMLDivElement;
  protected readonly checkButton: HTMLButtonElement;
  /** Ends a check that does not end (an endless loop in the reader's code). */
  protected readonly stopButton: HTMLButtonElement;
  private readonly solution: HTMLDetailsElement | null;
  private stopped = false;

  constructor(
    readonly root: HTMLElement,
    protected readonly runtime: PythonRuntime,
  ) {
    this.data = readData(root, ".lk-exercise__data", {} as D);
    this.checkButton = button("Prüfen", "lk-button--run", "", `${this.data.label} prüfen`);
    this.stopButton = button("Stopp", "lk-button--stop", "Prüfung stoppen (Python startet neu)", `Stopp: ${this.data.label}`);
    this.feedback = new Feedback(root.querySelector<HTMLOutputElement>("output.lk-exercise__feedback")!);
    this.progress = new ProgressStore(this.data.id, this.data.digest);
    this.solution = root.querySelector<HTMLDetailsElement>("details.lk-exercise__solution");
    if (this.solution) this.solution.hidden = true; // revealed by the exercise's own rules
    this.bar = document.createElement("div");
    this.bar.className = "lk-exercise__bar";
    this.bar.append(this.checkButton);
    if (this.data.type !== "quiz") {
      setAvailable(this.stopButton, false);
      this.stopButton.addEventListener("click", () => {
        this.stopped = true;
        // While Python loads nothing runs yet: end the waiting check, keep the download.
        if (!runtime.cancelQueued()) runtime.restart("stopp");
      });
      this.bar.append(this.stopButton);
    }
    root.querySelector("output.lk-exercise__feedback")?.before(this.bar);
    this.checkButton.addEventListener("click", () => void this.guard(() => this.check()));
    // Hints and the solution follow the feedback, where they are revealed.
    const feedback = root.querySelector("output.lk-exercise__feedback");
    feedback?.after(...root.querySelectorAll("details.lk-exercise__hint"), ...(this.solution ? [this.solution] : []));
    this.setupHints();
    root.dataset["lkMounted"] = "true";
    const { current, stale } = this.progress.load();
    if (current?.solved) this.markSolved(false);
    if (stale) this.offerStale(stale);
  }

  protected abstract check(): Promise<void>;

  /** The stored draft or answer of an older version of this exercise: restore or discard. */
  protected restore(_progress: Progress): void {}

  protected showSolution(): void {
    if (this.solution) {
      this.solution.hidden = false;
      this.solution.open = true;
    }
  }

  protected markSolved(save = true): void {
    this.root.dataset["solved"] = "true";
    if (save && !this.progress.save({ solved: true })) this.warnStorage();
  }

  protected save(change: Partial<Progress>): void {
    if (!this.progress.save(change)) this.warnStorage();
  }

  private warnStorage(): void {
    if (this.root.querySelector(".lk-exercise__storage")) return;
    const note = document.createElement("p");
    note.className = "lk-notice lk-notice--warning lk-exercise__storage";
    note.textContent = "Dein Fortschritt wird in diesem Browser nicht gespeichert (Speicher gesperrt oder voll).";
    this.bar.after(note);
  }

  private offerStale(stale: Progress): void {
    const box = document.createElement("div");
    box.className = "lk-notice lk-exercise__stale";
    box.setAttribute("role", "status");
    box.append("Du hast hier etwas gespeichert, aber zu einer älteren Fassung dieser Übung. ");
    const restore = button("Wiederherstellen", "lk-button--small");
    const discard = button("Verwerfen", "lk-button--small");
    box.append(restore, " ", discard);
    restore.addEventListener("click", () => {
      this.restore(stale);
      const { digest: _old, solved: _solved, ...work } = stale;
      this.save(work);
      box.remove();
    });
    discard.addEventListener("click", () => {
      this.progress.clear();
      box.remove();
    });
    this.bar.before(box);
  }

  private setupHints(): void {
    const hints = [...this.root.querySelectorAll<HTMLDetailsElement>("details.lk-exercise__hint")];
    if (hints.length === 0) return;
    let shown = 0;
    const name = (n: number): string => `Hinweis (${n} von ${hints.length}): ${this.data.label}`;
    const next = button(`Hinweis (1 von ${hints.length})`, "lk-button--hint", "", name(1));
    for (const hint of hints) hint.hidden = true;
    next.addEventListener("click", () => {
      const hint = hints[shown];
      if (!hint) return;
      hint.hidden = false;
      hint.open = true;
      shown += 1;
      if (shown < hints.length) {
        next.textContent = `Hinweis (${shown + 1} von ${hints.length})`;
        next.setAttribute("aria-label", name(shown + 1));
      } else {
        // Keeps focus (a disabled button would drop it to <body>).
        next.textContent = "Alle Hinweise gezeigt";
        next.setAttribute("aria-label", `Alle Hinweise gezeigt: ${this.data.label}`);
        setAvailable(next, false);
      }
    });
    this.bar.append(next);
  }

  /** Run an async step; tell the reader when Python is unavailable or was restarted. */
  protected async guard(step: () => Promise<void>): Promise<void> {
    setAvailable(this.checkButton, false);
    setAvailable(this.stopButton, true);
    this.stopped = false;
    this.root.dataset["state"] = "checking";
    try {
      await step();
    } catch (error) {
      this.feedback.clear();
      this.feedback.verdict("invalid", failure(error, this.stopped));
      if (error instanceof PythonFailedError) this.feedback.append(restartButton(this.runtime));
    } finally {
      setAvailable(this.checkButton, true);
      setAvailable(this.stopButton, false);
      this.root.dataset["state"] = "idle";
    }
  }
}

/** What the reader hears when a check or run could not finish. */
function failure(error: unknown, stopped: boolean): string {
  if (error instanceof CancelledError) return "Abgebrochen, bevor Python bereit war. Python lädt weiter; nichts ist verloren.";
  if (error instanceof RestartedError) {
    return stopped
      ? "Gestoppt. Python wurde neu gestartet; prüf noch einmal, wenn du so weit bist."
      : "Python wurde neu gestartet, bevor das fertig war. Bitte noch einmal.";
  }
  if (error instanceof PythonFailedError) {
    return (
      "Python hat das nicht zu Ende gebracht. Vielleicht hat Code Python selbst verändert " +
      `(zum Beispiel eingebaute Funktionen gelöscht). Meldung: ${error.message}`
    );
  }
  return `Python ist nicht verfügbar: ${String(error)}`;
}

/** "Lösung zeigen": available after a first attempt. */
function solutionButton(label: string): HTMLButtonElement {
  const node = button("Lösung zeigen", "lk-button--solution", "Nach einem ersten Versuch", `Lösung zeigen: ${label}`);
  setAvailable(node, false);
  return node;
}

/** Replace the static code of `host` with an editor (loaded on demand). */
async function editorIn(host: HTMLElement, code: string, label: string, onRun: () => void, onChange: (code: string) => void): Promise<CellEditor> {
  const { createEditor } = await import("../cell/editor");
  host.replaceChildren();
  return createEditor(host, { code, label, onRun, onChange });
}

class PredictionExercise extends Exercise<PredictionData> {
  private readonly input: HTMLInputElement;
  private editor: CellEditor | null = null;

  constructor(root: HTMLElement, runtime: PythonRuntime) {
    super(root, runtime);
    const id = `lk-answer-${this.data.id}`;
    const row = document.createElement("div");
    row.className = "lk-exercise__answer-row";
    row.innerHTML = `<label for="${id}">Deine Vorhersage</label><input id="${id}" type="text" autocomplete="off" spellcheck="false">`;
    this.bar.before(row);
    this.input = row.querySelector("input")!;
    this.input.placeholder = this.data.platzhalter ?? "ein Python-Wert";
    this.input.addEventListener("keydown", (event) => {
      if (event.key === "Enter") void this.guard(() => this.check());
    });
    this.input.addEventListener("input", () => this.save({ answer: this.input.value }));
    const { current } = this.progress.load();
    if (current?.answer) this.input.value = current.answer;
  }

  protected override restore(progress: Progress): void {
    this.input.value = progress.answer ?? "";
  }

  protected async check(): Promise<void> {
    const outcome = await this.runtime.call("exercise.predict", {
      code: this.data.code,
      answer: this.input.value,
      session: this.data.session,
      id: this.data.id,
    });
    this.feedback.clear();
    if (!outcome.valid) {
      this.feedback.verdict("invalid", outcome.message); // not counted
      this.input.focus();
      return;
    }
    this.feedback.verdict(outcome.correct ? "right" : "wrong", outcome.message);
    this.save({ answer: this.input.value });
    if (outcome.correct) this.markSolved();
    this.showSolution();
    await this.unlockCode();
  }

  /** After an answer the code becomes editable and runnable. */
  private async unlockCode(): Promise<void> {
    if (this.editor) return;
    const host = this.root.querySelector<HTMLElement>(".lk-exercise__code");
    if (!host) return;
    const label = this.data.label;
    // As in a cell: the status is the run's one live region, the output is not announced too.
    const output = document.createElement("output");
    output.className = "lk-output";
    output.setAttribute("role", "group");
    output.setAttribute("aria-live", "off");
    output.setAttribute("aria-label", `Ergebnis vom Code von ${label}`);
    const status = statusRegion("lk-cell__status");
    status.setAttribute("aria-live", "polite");
    const view = new OutputView(output);
    const runButton = button("Ausführen", "lk-button--run", "Ausführen (Umschalt+Enter)", `Code von ${label} ausführen`);
    const stopButton = button("Stopp", "lk-button--stop", "Lauf stoppen", `Stopp: Code von ${label}`);
    setAvailable(stopButton, false);
    let stopped = false;
    stopButton.addEventListener("click", () => {
      stopped = true;
      if (!this.runtime.cancelQueued()) this.runtime.restart("stopp");
    });
    const run = async (): Promise<void> => {
      view.clear();
      status.textContent = "Läuft …";
      setAvailable(runButton, false);
      setAvailable(stopButton, true);
      stopped = false;
      let done = false;
      try {
        const result = await this.runtime.run(
          { session: `versuch:${this.data.id}`, code: this.editor?.getCode() ?? "", label: this.data.label },
          (stream, text) => {
            if (!done) view.appendChunk(stream, text); // a leftover task's output is not this run's
          },
        );
        done = true;
        view.showResult(result);
        status.textContent = result.error === null ? "Fertig" : "Fehler";
      } catch (error) {
        done = true;
        view.clear();
        view.showNotice(failure(error, stopped), "warning");
        status.textContent = stopped ? "Gestoppt" : "Fehler";
        if (error instanceof PythonFailedError) output.lastElementChild?.append(" ", restartButton(this.runtime));
      } finally {
        setAvailable(runButton, true);
        setAvailable(stopButton, false);
      }
    };
    this.editor = await editorIn(host, this.data.code ?? "", this.data.label, () => void run(), () => undefined);
    runButton.addEventListener("click", () => void run());
    const bar = document.createElement("div");
    bar.className = "lk-exercise__bar";
    bar.append(runButton, stopButton, status);
    host.after(bar, output);
  }
}

class CodeTaskExercise extends Exercise<CodeTaskData> {
  private editor: CellEditor | null = null;
  private code: string;
  private readonly solutionButton: HTMLButtonElement;

  constructor(root: HTMLElement, runtime: PythonRuntime) {
    super(root, runtime);
    this.solutionButton = solutionButton(this.data.label);
    const { current } = this.progress.load();
    this.code = current?.draft ?? this.data.start ?? "";
    const reset = button("Zurücksetzen", "lk-button--reset", "Startcode wiederherstellen", `${this.data.label} zurücksetzen`);
    this.bar.append(this.solutionButton, reset);
    this.solutionButton.addEventListener("click", () => {
      if (window.confirm("Die Lösung zeigen? Ein weiterer eigener Versuch lohnt sich oft.")) this.showSolution();
    });
    reset.addEventListener("click", () => {
      this.code = this.data.start ?? "";
      this.editor?.setCode(this.code);
      this.save({ draft: this.code });
      this.feedback.clear();
    });
    void this.mountEditor();
  }

  private async mountEditor(): Promise<void> {
    const host = this.root.querySelector<HTMLElement>(".lk-exercise__code");
    if (!host) return;
    this.editor = await editorIn(host, this.code, this.data.label, () => void this.guard(() => this.check()), (code) => {
      this.code = code;
      this.save({ draft: code });
    });
  }

  protected override restore(progress: Progress): void {
    if (progress.draft === undefined) return;
    this.code = progress.draft;
    this.editor?.setCode(progress.draft);
  }

  protected async check(): Promise<void> {
    const outcome = await this.runtime.call("exercise.check_code", {
      vorbereitung: this.data.vorbereitung,
      code: this.editor?.getCode() ?? this.code,
      pruefung: this.data.pruefung,
    });
    this.feedback.clear();
    const passed = outcome.checks.filter((check) => check.ok).length;
    if (outcome.ok) this.feedback.verdict("right", `Gelöst: alle ${outcome.checks.length} Prüfungen bestanden.`);
    else if (outcome.error) this.feedback.verdict("wrong", "Dein Code wirft einen Fehler, bevor geprüft werden kann:");
    else this.feedback.verdict("wrong", `${passed} von ${outcome.checks.length} Prüfungen bestanden.`);
    this.feedback.checks(outcome);
    this.feedback.pre(outcome.output);
    setAvailable(this.solutionButton, true);
    this.solutionButton.title = "";
    if (outcome.ok) this.markSolved();
  }
}

class ConsoleTaskExercise extends Exercise<ConsoleTaskData> {
  private readonly solutionButton: HTMLButtonElement;

  constructor(root: HTMLElement, runtime: PythonRuntime) {
    super(root, runtime);
    this.solutionButton = solutionButton(this.data.label);
    this.bar.append(this.solutionButton);
    this.solutionButton.addEventListener("click", () => {
      if (window.confirm("Die Lösung zeigen? Ein weiterer eigener Versuch lohnt sich oft.")) this.showSolution();
    });
  }

  protected async check(): Promise<void> {
    const consoleData = readData<Pick<ConsoleData, "key">>(this.root, ".lk-console__data", { key: "" });
    const outcome = await this.runtime.call("exercise.check_console", {
      key: consoleData.key,
      kind: this.data.kind,
      options: this.data.options,
      setup: this.data.setup,
      pruefung: this.data.pruefung,
    });
    this.feedback.clear();
    const passed = outcome.checks.filter((check) => check.ok).length;
    this.feedback.verdict(
      outcome.ok ? "right" : "wrong",
      outcome.ok ? "Gelöst: der Zustand stimmt." : `${passed} von ${outcome.checks.length} Prüfungen bestanden.`,
    );
    this.feedback.checks(outcome);
    setAvailable(this.solutionButton, true);
    this.solutionButton.title = "";
    if (outcome.ok) this.markSolved();
  }
}

class QuizExercise extends Exercise<QuizData> {
  private readonly inputs: HTMLInputElement[];

  constructor(root: HTMLElement, runtime: PythonRuntime) {
    super(root, runtime);
    this.inputs = [...root.querySelectorAll<HTMLInputElement>(".lk-quiz__option input")];
    const { current } = this.progress.load();
    if (current?.answer) this.restore(current);
    for (const input of this.inputs) input.addEventListener("change", () => this.save({ answer: this.selected().join(",") }));
  }

  private selected(): number[] {
    return this.inputs.filter((input) => input.checked).map((input) => Number(input.value));
  }

  protected override restore(progress: Progress): void {
    const chosen = new Set((progress.answer ?? "").split(",").filter(Boolean).map(Number));
    for (const input of this.inputs) input.checked = chosen.has(Number(input.value));
  }

  protected async check(): Promise<void> {
    const chosen = this.selected();
    this.feedback.clear();
    if (chosen.length === 0) {
      this.feedback.verdict("invalid", "Wähle zuerst eine Antwort.");
      return;
    }
    const right = new Set(this.data.richtig);
    const correct = chosen.length === right.size && chosen.every((index) => right.has(index));
    this.inputs.forEach((input, index) => {
      const item = input.closest("li");
      if (!item) return;
      const result = right.has(index) ? "right" : input.checked ? "wrong" : "";
      item.dataset["result"] = result;
      // The verdict in words beside the option (not only a colour; forced colours keep it).
      item.querySelector(".lk-quiz__verdict")?.remove();
      if (result) {
        const verdict = document.createElement("span");
        verdict.className = "lk-quiz__verdict";
        verdict.textContent =
          result === "wrong" ? "✗ Falsch" : input.checked ? "✓ Richtig" : "✓ Richtig (nicht gewählt)";
        item.querySelector("label")?.append(verdict);
      }
      const why = item.querySelector<HTMLElement>(".lk-quiz__why");
      if (why && (input.checked || right.has(index))) why.hidden = false;
    });
    const many = right.size > 1 ? ` (${right.size} Antworten sind richtig)` : "";
    this.feedback.verdict(correct ? "right" : "wrong", correct ? "Richtig." : `Noch nicht${many}. Die Erklärungen stehen bei den Antworten.`);
    this.showSolution();
    if (correct) this.markSolved();
  }
}

const KINDS = {
  vorhersage: PredictionExercise,
  aufgabe: CodeTaskExercise,
  "konsolen-aufgabe": ConsoleTaskExercise,
  quiz: QuizExercise,
} as const;

/** Mount every exercise in `scope`; tell the reader once if progress cannot be saved. */
export function mountExercises(scope: ParentNode, runtime: PythonRuntime): Exercise[] {
  const roots = [...scope.querySelectorAll<HTMLElement>("[data-lk-exercise]:not([data-lk-mounted])")];
  const mounted = roots.map((root) => new KINDS[(root.dataset["type"] ?? "quiz") as keyof typeof KINDS](root, runtime));
  if (mounted.length > 0 && !storageAvailable()) {
    const note = document.createElement("p");
    note.className = "lk-notice lk-notice--warning";
    note.setAttribute("role", "status");
    note.textContent = "Hinweis: Dein Fortschritt wird in diesem Browser nicht gespeichert (privates Fenster oder Speicher gesperrt). Die Übungen funktionieren trotzdem.";
    mounted[0]?.root.before(note);
  }
  return mounted;
}
