/**
 * Exercises: predictions, code tasks, console tasks and quizzes.
 *
 * Each mounts onto the markup of lessonkit/exercises.py (render_exercise),
 * checks in the page's Python worker through `lessonkit.bridge` (the same
 * checks the build ran to prove the exercise sound) and keeps the reader's
 * progress in localStorage (./progress.ts).
 *
 * A reader may fail and try again (issue 26): a wrong answer hears "Noch nicht" and
 * what is wrong (./attempts.ts), never the solution; the solution shows on "Lösung
 * zeigen" after an in-page confirmation (controls.ts `confirmInPage`), or by itself
 * once the author's number of tries (`versuche`) is used up. Progress records the
 * tries and whether the solution was shown. A code task also runs without a verdict
 * (Ausführen).
 */
import type { Interruption, PythonRuntime } from "../../runtime/python";
import { FLOOD_TEXT, interruption, MEMORY_TEXT, stoppedBy, unavailableText, unfinishedText } from "../../runtime/python";
import { type Block, getBlock, getBlocks } from "../blocks";
import type { CellEditor } from "../cell/editor";
import type { Prerequisites } from "../cell/order";
import { button, confirmInPage, setAvailable } from "../controls";
import { storageWarning } from "../notice";
import { restartButton } from "../restart";
import { type InterruptedView, mountRunPanel, type RunPanel, runOutput } from "../run";
import type {
  ChallengeData,
  CodeTaskData,
  ConsoleTaskData,
  ExerciseData,
  PredictionData,
  QuizData,
} from "../../generated/contract";
import { Challenge } from "./challenge";
import { checkVerdict, runs, seedRange } from "./seeds";
import { judgeQuiz, revealDue, triesNote, wrongVerdict } from "./attempts";
import { Feedback } from "./feedback";
import { type Progress, ProgressStore, storageAvailable } from "./progress";

/** What a run of code without a verdict asks for after Stopp. */
const RUN_AGAIN = "führ den Code noch einmal aus";

/** What all four kinds share: data, feedback, progress, hints, the hidden solution. */
abstract class Exercise<D extends ExerciseData = ExerciseData> {
  protected readonly feedback: Feedback;
  protected readonly progress: ProgressStore;
  protected readonly bar: HTMLDivElement;
  protected readonly checkButton: HTMLButtonElement;
  /** Ends a check or run that does not end (an endless loop in the reader's code). */
  protected readonly stopButton: HTMLButtonElement;
  /** "Lösung zeigen": available after a first attempt, asks in the page first. */
  protected readonly solutionButton: HTMLButtonElement | null;
  /** Wrong answers checked so far (stored, so a reload keeps the count). */
  protected tries = 0;
  /** The solution is shown because the reader asked or the tries were used up. */
  protected revealed = false;
  /** A check or run is going on (`busy`): nothing else starts until it ends. */
  private working = false;
  private readonly solution: HTMLDetailsElement | null;

  constructor(
    readonly root: HTMLElement,
    readonly data: D,
    protected readonly runtime: PythonRuntime,
  ) {
    this.checkButton = button("Prüfen", "lk-button--run", "", `${this.data.label} prüfen`);
    this.stopButton = button("Stopp", "lk-button--stop", "Prüfung stoppen (Python startet neu)", `Stopp: ${this.data.label}`);
    this.feedback = new Feedback(root.querySelector<HTMLOutputElement>("output.lk-exercise__feedback")!);
    this.progress = new ProgressStore(this.data.id, this.data.digest, undefined, [this.data.digest_before]);
    this.solution = root.querySelector<HTMLDetailsElement>("details.lk-exercise__solution");
    if (this.solution) this.solution.hidden = true; // revealed by the exercise's own rules
    this.bar = document.createElement("div");
    this.bar.className = "lk-exercise__bar";
    this.bar.append(this.checkButton);
    if (this.data.type !== "quiz") {
      setAvailable(this.stopButton, false);
      // While Python loads nothing runs yet: the waiting check ends, the download goes on.
      this.stopButton.addEventListener("click", () => runtime.stopp(this));
      this.bar.append(this.stopButton);
    }
    root.querySelector("output.lk-exercise__feedback")?.before(this.bar);
    this.checkButton.addEventListener("click", () => void this.guard(() => this.check()));
    // Hints and the solution follow the feedback, where they are revealed.
    const feedback = root.querySelector("output.lk-exercise__feedback");
    feedback?.after(...root.querySelectorAll("details.lk-exercise__hint"), ...(this.solution ? [this.solution] : []));
    this.setupHints();
    this.solutionButton = this.solution ? solutionButton(this.data.label) : null;
    if (this.solutionButton) {
      const asked = this.solutionButton;
      this.bar.append(asked);
      asked.addEventListener("click", () => void this.askForSolution(asked));
    }
    root.dataset["lkMounted"] = "true";
    const { current, stale } = this.progress.load();
    this.tries = current?.tries ?? 0;
    // Solved once stays solved, also in an earlier version of the exercise (an author's
    // typo fix changes the digest): the progress overview counts it so too.
    if (current?.solved || stale?.solved) this.markSolved(false);
    if (stale) this.offerStale(stale);
  }

  protected abstract check(): Promise<void>;

  /** Once the subclass is ready: what was stored shows again (a solution already seen). */
  mounted(): void {
    const { current } = this.progress.load();
    if (this.tries > 0 || current?.solved) this.attempted();
    if (current?.revealed) void this.reveal("load");
  }

  /** The stored draft or answer of an older version of this exercise: restore or discard. */
  protected restore(_progress: Progress): void {}

  /** Show the solution (solved, or revealed): the details open, "Lösung zeigen" gone. */
  protected showSolution(): void {
    if (this.solution) {
      this.solution.hidden = false;
      this.solution.open = true;
    }
    if (this.solutionButton) this.solutionButton.hidden = true;
  }

  /** What else shows with the solution (a quiz's verdicts, a prediction's code). */
  protected async showMore(): Promise<void> {}

  /** After a first attempt "Lösung zeigen" may be pressed. */
  protected attempted(): void {
    if (!this.solutionButton) return;
    setAvailable(this.solutionButton, true);
    this.solutionButton.title = "";
  }

  /** A wrong answer was checked: count it; true when that used up the author's tries. An
   * exercise solved before keeps that in the progress and its head ("einmal gelöst"), but
   * its border follows this latest verdict (lessonkit.css). */
  protected countWrong(): boolean {
    this.root.dataset["latest"] = "wrong";
    this.tries += 1;
    this.save({ tries: this.tries });
    this.attempted();
    return !this.revealed && revealDue(this.tries, this.versuche());
  }

  /** The author's number of tries before the solution shows by itself (quiz, prediction). */
  protected versuche(): number | null {
    return null;
  }

  /** The solution, because the reader asked (focus moves to it), the tries were used
   * up, or it was shown before this page load. Recorded in the progress. */
  protected async reveal(why: "request" | "tries" | "load"): Promise<void> {
    this.revealed = true;
    if (why !== "load") this.save({ revealed: true });
    this.showSolution();
    if (why === "request") this.solution?.querySelector("summary")?.focus();
    await this.showMore();
  }

  private async askForSolution(trigger: HTMLButtonElement): Promise<void> {
    const yes = await confirmInPage(trigger, this.bar, {
      question: "Lösung zeigen? Ein weiterer eigener Versuch lohnt sich oft.",
      yes: "Ja, Lösung zeigen",
      no: "Weiter versuchen",
      label: this.data.label,
    });
    if (yes) await this.reveal("request");
  }

  /** Solved (once: the progress keeps it for good); `save`: by a check now, which is then
   * the latest verdict (`data-latest`, which the border follows). */
  protected markSolved(save = true): void {
    this.root.dataset["solved"] = "true";
    if (!save) return;
    this.root.dataset["latest"] = "right";
    if (!this.progress.save({ solved: true })) this.warnStorage();
  }

  protected save(change: Partial<Progress>): void {
    if (!this.progress.save(change)) this.warnStorage();
  }

  private warnStorage(): void {
    if (this.root.querySelector(".lk-exercise__storage")) return;
    this.bar.after(storageWarning("exercise", "lk-exercise__storage"));
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
      // Only the reader's own work carries over: tries and a shown solution were the old version's.
      const work: Partial<Progress> = {};
      if (stale.draft !== undefined) work.draft = stale.draft;
      if (stale.answer !== undefined) work.answer = stale.answer;
      this.save(work);
      box.remove();
    });
    discard.addEventListener("click", () => {
      // Only the old work goes; that it was solved stays.
      if (stale.solved) this.progress.save({ solved: true });
      else this.progress.clear();
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

  /** Check or run, one at a time: the buttons that start one wait, Stopp is there. */
  protected busy(on: boolean, state: "checking" | "running" = "checking"): void {
    this.working = on;
    setAvailable(this.checkButton, !on);
    setAvailable(this.stopButton, on);
    this.root.dataset["state"] = on ? state : "idle";
  }

  /** Run an async step; tell the reader when Python is unavailable or was restarted (and
   * what to do `again`). Nothing starts while another step runs: Enter in an answer or
   * Umschalt+Enter in an editor does not reach a button that waits. */
  protected async guard(
    step: () => Promise<void>,
    state: "checking" | "running" = "checking",
    again = state === "running" ? RUN_AGAIN : "prüf noch einmal",
  ): Promise<void> {
    if (this.working) return;
    this.busy(true, state);
    try {
      await step();
    } catch (error) {
      const outcome = interruption(error);
      this.feedback.clear();
      this.feedback.verdict("invalid", failure(outcome, stoppedBy(outcome, this), again));
      if (outcome.kind === "failed") this.feedback.append(restartButton(this.runtime));
    } finally {
      this.busy(false);
    }
  }
}

/** What the reader hears when a check (or a run, a replay) could not finish, ending with
 * what to do `again`; `stoppedHere`: by the exercise's own `Stopp`. */
function failure(outcome: Interruption, stoppedHere: boolean, again = "prüf noch einmal"): string {
  switch (outcome.kind) {
    case "cancelled":
      return "Abgebrochen, bevor Python bereit war. Python lädt weiter; nichts ist verloren.";
    case "restarted": {
      if (outcome.reason === "flut") return `${FLOOD_TEXT} Bitte noch einmal.`;
      if (outcome.reason === "speicher") return `${MEMORY_TEXT} Bitte noch einmal.`;
      return stoppedHere
        ? `Gestoppt. Python wurde neu gestartet; ${again}, wenn du so weit bist.`
        : "Python wurde neu gestartet, bevor das fertig war. Bitte noch einmal.";
    }
    case "failed":
      return judgingChanged(outcome.message) ?? unfinishedText("das", outcome.message);
    case "unavailable":
      return unavailableText(outcome.message);
  }
}

/**
 * Python refused a verdict because code changed its judging (lessonkit/integrity.py,
 * `JudgingChanged`): its German message alone, without Python's traceback; else null.
 */
export function judgingChanged(message: string): string | null {
  return /JudgingChanged: ([^\n]+)/.exec(message)?.[1] ?? null;
}

/** An exercise's words for a run of code without a verdict that did not finish. */
function runWords(outcome: Interruption, stoppedHere: boolean): InterruptedView {
  return {
    notice: failure(outcome, stoppedHere, RUN_AGAIN),
    state: stoppedHere ? "stopped" : "error",
    status: stoppedHere ? "Gestoppt" : "Fehler",
  };
}

/** "Lösung zeigen": available after a first attempt. */
function solutionButton(label: string): HTMLButtonElement {
  const node = button("Lösung zeigen", "lk-button--solution", "Nach einem ersten Versuch", `Lösung zeigen: ${label}`);
  node.setAttribute("aria-expanded", "false");
  setAvailable(node, false);
  return node;
}

/** Replace the static code of `host` with an editor (loaded on demand). */
async function editorIn(host: HTMLElement, code: string, label: string, onRun: () => void, onChange: (code: string) => void): Promise<CellEditor> {
  const { createEditor } = await import("../cell/editor");
  host.replaceChildren();
  return createEditor(host, { code, label, onRun, onChange });
}

/** Runs the cells of a session above a block that have not run (the page's cells). */
export type CellsAbove = (session: string, element: Element) => Promise<Prerequisites>;

class PredictionExercise extends Exercise<PredictionData> {
  private readonly input: HTMLInputElement;
  private editor: CellEditor | null = null;

  constructor(
    root: HTMLElement,
    data: PredictionData,
    runtime: PythonRuntime,
    /** A prediction with `session` needs what the session's cells above it define. */
    private readonly cellsAbove: CellsAbove,
  ) {
    super(root, data, runtime);
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

  protected override versuche(): number | null {
    return this.data.versuche ?? null;
  }

  protected override restore(progress: Progress): void {
    this.input.value = progress.answer ?? "";
  }

  protected override async showMore(): Promise<void> {
    await this.unlockCode();
  }

  /** The session's cells above this prediction, run if they have not: null when they all
   * ran, else what the reader is told (nothing is counted then). */
  private async prepareSession(): Promise<string | null> {
    const session = this.data.session;
    if (session === null) return null;
    const done = await this.cellsAbove(session, this.root);
    switch (done.kind) {
      case "ok":
        return null;
      case "failed-before":
        return `${done.label} davor lief nicht durch, und diese Vorhersage braucht, was sie festlegt. Sieh dir dort den Fehler an (oder setze die Zelle zurück) und prüfe dann noch einmal. Diese Antwort zählt nicht.`;
      case "cancelled":
      case "restarted":
        return "Die Zellen davor, die diese Vorhersage braucht, wurden gestoppt. Prüfe noch einmal; diese Antwort zählt nicht.";
    }
  }

  protected async check(): Promise<void> {
    const unprepared = await this.prepareSession();
    if (unprepared !== null) {
      this.feedback.clear();
      this.feedback.verdict("invalid", unprepared); // not counted
      return;
    }
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
    this.save({ answer: this.input.value });
    if (outcome.correct) {
      this.feedback.verdict("right", outcome.message);
      for (const note of outcome.notes) this.feedback.note(note);
      this.markSolved();
      this.attempted();
      this.showSolution();
      await this.unlockCode();
      return;
    }
    const due = this.countWrong();
    // Once the solution is out, the real values may be named too.
    this.feedback.verdict("wrong", wrongVerdict(this.revealed || due ? outcome.message : outcome.nudge, this.tries));
    for (const note of outcome.notes) this.feedback.note(note);
    this.feedback.note(triesNote(this.tries, this.versuche()));
    if (due) await this.reveal("tries");
  }

  /** With the solution (or solved) the code becomes editable and runnable. */
  private async unlockCode(): Promise<void> {
    if (this.editor) return;
    const host = this.root.querySelector<HTMLElement>(".lk-exercise__code");
    if (!host) return;
    const label = this.data.label;
    // A run panel as a cell's: the status is the run's one live region, the output is not announced too.
    // With `session` the code runs where the build ran it: in the session, after its cells above.
    const session = this.data.session ?? `versuch:${this.data.id}`;
    const start = (): void => {
      void panel.run({ session, code: this.editor?.getCode() ?? "", label }, async () => {
        await this.prepareSession();
      });
    };
    const panel: RunPanel = mountRunPanel(this.runtime, {
      output: runOutput(`Ergebnis vom Code von ${label}`, "lk-exercise__run"),
      buttons: {
        run: { title: "Ausführen (Umschalt+Enter)", name: `Code von ${label} ausführen` },
        stop: { title: "Lauf stoppen", name: `Stopp: Code von ${label}` },
        onRun: start,
      },
      interrupted: runWords,
    });
    this.editor = await editorIn(host, this.data.code ?? "", label, start, () => undefined);
    const bar = document.createElement("div");
    bar.className = "lk-exercise__bar";
    bar.append(...panel.controls());
    host.after(bar, panel.outputElement);
  }
}

/** An exercise whose answer is code in an editor (a code task, a challenge): the draft is
 * kept in the progress, `Zurücksetzen` restores the starting code, Umschalt+Enter checks. */
abstract class EditorExercise<D extends CodeTaskData | ChallengeData> extends Exercise<D> {
  protected editor: CellEditor | null = null;
  protected code: string;
  protected readonly runButton: HTMLButtonElement;
  protected readonly resetButton: HTMLButtonElement;

  constructor(root: HTMLElement, data: D, runtime: PythonRuntime, runTitle: string) {
    super(root, data, runtime);
    const { current } = this.progress.load();
    this.code = current?.draft ?? this.data.start ?? "";
    this.runButton = button("Ausführen", "lk-button--try", runTitle, `${this.data.label} ausführen`);
    this.checkButton.before(this.runButton);
    this.resetButton = button("Zurücksetzen", "lk-button--reset", "Startcode wiederherstellen", `${this.data.label} zurücksetzen`);
    this.resetButton.addEventListener("click", () => {
      this.code = this.data.start ?? "";
      this.editor?.setCode(this.code);
      this.save({ draft: this.code });
      this.feedback.clear();
      this.clearRun();
    });
    void this.mountEditor();
  }

  /** What `Zurücksetzen` clears besides the verdict: the last run's output. */
  protected abstract clearRun(): void;

  /** The code as the reader has it now. */
  protected source(): string {
    return this.editor?.getCode() ?? this.code;
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

  protected override busy(on: boolean, state: "checking" | "running" = "checking"): void {
    super.busy(on, state);
    setAvailable(this.runButton, !on);
    // The code a check or run started with stays what it shows (and the view stays its own).
    setAvailable(this.resetButton, !on);
  }
}

class CodeTaskExercise extends EditorExercise<CodeTaskData> {
  /** Its output and status; the task's own buttons start it (Ausführen) and stop it (Stopp). */
  private readonly codeRun: RunPanel;

  constructor(root: HTMLElement, data: CodeTaskData, runtime: PythonRuntime) {
    super(root, data, runtime, "Ausführen, ohne zu prüfen");
    this.codeRun = mountRunPanel(runtime, {
      output: runOutput(`Ausgabe von ${this.data.label}`, "lk-exercise__run"),
      owner: this,
      interrupted: runWords,
    });
    this.runButton.addEventListener("click", () => void this.runCode());
    this.bar.append(this.resetButton, ...this.codeRun.controls());
    this.bar.after(this.codeRun.outputElement);
  }

  protected clearRun(): void {
    this.codeRun.clear();
  }

  /** Ausführen: the output as in a cell, without a verdict (and without counting a try).
   * One result at a time: a run replaces the last verdict, a check the last run. */
  private async runCode(): Promise<void> {
    this.busy(true, "running");
    this.feedback.clear();
    const session = `aufgabe:${this.data.id}`;
    try {
      await this.codeRun.run({ session, code: this.source(), label: "Dein Code" }, async () => {
        await this.runtime.call("exercise.prepare", { session, vorbereitung: this.data.vorbereitung });
      });
    } finally {
      this.busy(false);
    }
  }

  protected async check(): Promise<void> {
    const outcome = await this.runtime.call("exercise.check_code", {
      vorbereitung: this.data.vorbereitung,
      code: this.source(),
      pruefung: this.data.pruefung,
    });
    this.feedback.clear();
    this.codeRun.clear();
    const passed = outcome.checks.filter((check) => check.ok).length;
    if (outcome.ok) this.feedback.verdict("right", `Gelöst: alle ${outcome.checks.length} Prüfungen bestanden.`);
    else if (outcome.error) this.feedback.verdict("wrong", "Dein Code wirft einen Fehler, bevor geprüft werden kann:");
    else this.feedback.verdict("wrong", `${passed} von ${outcome.checks.length} Prüfungen bestanden.`);
    this.feedback.checks(outcome);
    this.feedback.pre(outcome.output);
    if (outcome.ok) {
      this.markSolved();
      this.attempted();
    } else {
      this.countWrong();
    }
  }
}

class ConsoleTaskExercise extends Exercise<ConsoleTaskData> {
  /** The task's console (mounted by ../console), whose state the check reads. */
  private readonly consoleKey: string;

  constructor(root: HTMLElement, data: ConsoleTaskData, runtime: PythonRuntime) {
    super(root, data, runtime);
    const console = root.querySelector<HTMLElement>("[data-lk-console]");
    if (!console) throw new ReferenceError(`lessonkit: console task #${root.id} has no [data-lk-console]`);
    this.consoleKey = getBlock("console", console).data.key;
  }

  protected async check(): Promise<void> {
    const outcome = await this.runtime.call("exercise.check_console", {
      key: this.consoleKey,
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
    if (outcome.ok) {
      this.markSolved();
      this.attempted();
    } else {
      this.countWrong();
    }
  }
}

class QuizExercise extends Exercise<QuizData> {
  private readonly inputs: HTMLInputElement[];
  /** Options found wrong in an earlier try: their ✗ and explanation stay (facts about them). */
  private readonly knownWrong = new Set<number>();

  constructor(root: HTMLElement, data: QuizData, runtime: PythonRuntime) {
    super(root, data, runtime);
    this.inputs = [...root.querySelectorAll<HTMLInputElement>(".lk-quiz__option input")];
    const { current } = this.progress.load();
    if (current?.answer) this.restore(current);
    for (const input of this.inputs) input.addEventListener("change", () => this.save({ answer: this.selected().join(",") }));
  }

  protected override versuche(): number | null {
    return this.data.versuche ?? null;
  }

  private selected(): number[] {
    return this.inputs.filter((input) => input.checked).map((input) => Number(input.value));
  }

  protected override restore(progress: Progress): void {
    const chosen = new Set((progress.answer ?? "").split(",").filter(Boolean).map(Number));
    for (const input of this.inputs) input.checked = chosen.has(Number(input.value));
  }

  protected override async showMore(): Promise<void> {
    this.mark(true);
  }

  /**
   * Each option's verdict in words beside it (not only a colour; forced colours keep it)
   * and its explanation. Before the solution only options found wrong are marked; with
   * it (`all`) every right one too, chosen or not.
   */
  private mark(all: boolean): void {
    const right = new Set(this.data.richtig);
    this.inputs.forEach((input, index) => {
      const item = input.closest("li");
      if (!item) return;
      const wrong = this.knownWrong.has(index) || (all && input.checked && !right.has(index));
      const result = all && right.has(index) ? "right" : wrong ? "wrong" : "";
      item.dataset["result"] = result;
      item.querySelector(".lk-quiz__verdict")?.remove();
      if (result) {
        const verdict = document.createElement("span");
        verdict.className = "lk-quiz__verdict";
        verdict.textContent =
          result === "wrong" ? "✗ Falsch" : input.checked ? "✓ Richtig" : "✓ Richtig (nicht gewählt)";
        item.querySelector("label")?.append(verdict);
      }
      const why = item.querySelector<HTMLElement>(".lk-quiz__why");
      if (why && (wrong || (all && (input.checked || right.has(index))))) why.hidden = false;
    });
  }

  protected async check(): Promise<void> {
    const chosen = this.selected();
    this.feedback.clear();
    if (chosen.length === 0) {
      this.feedback.verdict("invalid", "Wähle zuerst eine Antwort.");
      return;
    }
    this.save({ answer: chosen.join(",") });
    const judged = judgeQuiz(chosen, this.data.richtig);
    for (const index of judged.wrongChosen) this.knownWrong.add(index);
    if (judged.correct) {
      this.feedback.verdict("right", "Richtig.");
      this.markSolved();
      this.attempted();
      this.showSolution();
      this.mark(true);
      return;
    }
    const due = this.countWrong();
    this.mark(this.revealed || due);
    this.feedback.verdict("wrong", wrongVerdict(judged.detail, this.tries));
    const explained = judged.wrongChosen.some((index) => this.inputs[index]?.closest("li")?.querySelector(".lk-quiz__why"));
    if (explained && !this.revealed && !due) this.feedback.note("Bei der falschen Antwort steht, warum.");
    this.feedback.note(triesNote(this.tries, this.versuche()));
    if (due) await this.reveal("tries");
  }
}

class ChallengeExercise extends EditorExercise<ChallengeData> {
  private readonly challenge: Challenge;

  constructor(root: HTMLElement, data: ChallengeData, runtime: PythonRuntime) {
    super(root, data, runtime, "Seed 1 laufen lassen, ohne zu prüfen");
    const seeds = this.data.vorgabe.seeds;
    this.checkButton.title = `${runs(seeds)} prüfen (${seedRange(1, seeds)}), bis einer scheitert`;
    this.bar.append(this.resetButton);
    this.challenge = new Challenge(
      {
        root,
        data: this.data,
        runtime,
        owner: this,
        act: (step, again, state) => this.guard(step, state, again),
        clearVerdict: () => this.feedback.clear(),
      },
      () => this.source(),
    );
    this.runButton.addEventListener("click", () => void this.guard(() => this.challenge.run(), "running"));
  }

  protected clearRun(): void {
    this.challenge?.clear();
  }

  protected override busy(on: boolean, state: "checking" | "running" = "checking"): void {
    super.busy(on, state);
    this.challenge?.setAvailable(!on);
  }

  protected async check(): Promise<void> {
    this.feedback.clear();
    const result = await this.challenge.check();
    const { kind, text } = checkVerdict(result, this.data.vorgabe.seeds);
    this.feedback.verdict(kind, text);
    if (kind === "right") {
      this.markSolved();
      this.attempted();
    } else {
      this.countWrong();
    }
  }
}

/** The exercise of the kind its data names. */
function mountExercise({ root, data }: Block<"exercise">, runtime: PythonRuntime, cellsAbove: CellsAbove): Exercise {
  switch (data.type) {
    case "vorhersage":
      return new PredictionExercise(root, data, runtime, cellsAbove);
    case "aufgabe":
      return new CodeTaskExercise(root, data, runtime);
    case "konsolen-aufgabe":
      return new ConsoleTaskExercise(root, data, runtime);
    case "quiz":
      return new QuizExercise(root, data, runtime);
    case "herausforderung":
      return new ChallengeExercise(root, data, runtime);
  }
}

/** A page without cells: nothing stands above a prediction. */
const noCells: CellsAbove = () => Promise.resolve({ kind: "ok" });

/** Mount every exercise in `scope`; tell the reader once if progress cannot be saved;
 * `cellsAbove` runs the cells a prediction with `session` needs (the page's `CellPage`). */
export function mountExercises(scope: ParentNode, runtime: PythonRuntime, cellsAbove: CellsAbove = noCells): Exercise[] {
  const mounted = getBlocks("exercise", scope).map((block) => mountExercise(block, runtime, cellsAbove));
  for (const exercise of mounted) exercise.mounted();
  if (mounted.length > 0 && !storageAvailable()) {
    const note = storageWarning("exercises");
    note.setAttribute("role", "status");
    mounted[0]?.root.before(note);
  }
  return mounted;
}
