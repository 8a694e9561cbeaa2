/**
 * What every exercise shares (./index.ts mounts the kinds): the check and Stopp buttons,
 * feedback, progress, hints, the hidden solution and "Lösung zeigen", tries; an editor's
 * draft for the kinds whose answer is code (`EditorExercise`).
 */
import type { CellEditor, EditorLanguage } from "../cell/editor";
import type { Prerequisites } from "../cell/order";
import { button, confirmInPage, setAvailable } from "../controls";
import { storageWarning } from "../notice";
import { restartButton } from "../restart";
import type { InterruptedView } from "../run";
import type { ChallengeData, CodeTaskData, ExerciseData } from "../../generated/contract";
import type { Interruption, PythonRuntime } from "../../runtime/python";
import { FLOOD_TEXT, interruption, MEMORY_TEXT, stoppedBy, unavailableText, unfinishedText } from "../../runtime/python";
import { revealDue } from "./attempts";
import { Feedback } from "./feedback";
import { type Progress, ProgressStore } from "./progress";

/** What a run of code without a verdict asks for after Stopp. */
const RUN_AGAIN = "führ den Code noch einmal aus";

/** What all four kinds share: data, feedback, progress, hints, the hidden solution. */
export abstract class Exercise<D extends ExerciseData = ExerciseData> {
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
      if (stale.draft_ts !== undefined) work.draft_ts = stale.draft_ts;
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

  /** A check's verdict counted: solved, or one wrong try more. */
  protected settle(ok: boolean): void {
    if (ok) {
      this.markSolved();
      this.attempted();
    } else {
      this.countWrong();
    }
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
 * Python refused a verdict because code changed its judging (lessonkit/runtime/integrity.py,
 * `JudgingChanged`): its German message alone, without Python's traceback; else null.
 */
export function judgingChanged(message: string): string | null {
  return /JudgingChanged: ([^\n]+)/.exec(message)?.[1] ?? null;
}

/** An exercise's words for a run of code without a verdict that did not finish. */
export function runWords(outcome: Interruption, stoppedHere: boolean): InterruptedView {
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
export async function editorIn(
  host: HTMLElement,
  code: string,
  label: string,
  onRun: () => void,
  onChange: (code: string) => void,
  language: EditorLanguage = "python",
): Promise<CellEditor> {
  const { createEditor } = await import("../cell/editor");
  host.replaceChildren();
  return createEditor(host, { code, label, onRun, onChange, language });
}

/** Runs the cells of a session above a block that have not run (the page's cells). */
export type CellsAbove = (session: string, element: Element) => Promise<Prerequisites>;

/** An exercise whose answer is code in an editor (a code task, a challenge): the draft is
 * kept in the progress, `Zurücksetzen` restores the starting code, Umschalt+Enter checks. */
export abstract class EditorExercise<D extends CodeTaskData | ChallengeData> extends Exercise<D> {
  protected editor: CellEditor | null = null;
  protected code: string;
  protected readonly runButton: HTMLButtonElement;
  protected readonly resetButton: HTMLButtonElement;

  constructor(root: HTMLElement, data: D, runtime: PythonRuntime, runTitle: string) {
    super(root, data, runtime);
    const { current } = this.progress.load();
    this.code = this.draftIn(current) ?? this.startCode();
    this.runButton = button("Ausführen", "lk-button--try", runTitle, `${this.data.label} ausführen`);
    this.checkButton.before(this.runButton);
    this.resetButton = button("Zurücksetzen", "lk-button--reset", "Startcode wiederherstellen", `${this.data.label} zurücksetzen`);
    this.resetButton.addEventListener("click", () => {
      this.code = this.startCode();
      this.editor?.setCode(this.code);
      this.save(this.draftChange(this.code));
      this.feedback.clear();
      this.clearRun();
    });
    void this.mountEditor();
  }

  /** The language the editor's code is in (a challenge may be written in TypeScript). */
  protected language(): EditorLanguage {
    return "python";
  }

  /** The author's starting code in the editor's language. */
  protected startCode(): string {
    return this.data.start ?? "";
  }

  /** The reader's draft in the editor's language, as `progress` keeps it. */
  protected draftIn(progress: Progress | null): string | undefined {
    return progress?.draft;
  }

  /** What the progress keeps of `code`, the draft in the editor's language. */
  protected draftChange(code: string): Partial<Progress> {
    return { draft: code };
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
    this.editor = await editorIn(
      host,
      this.code,
      this.data.label,
      () => void this.guard(() => this.check()),
      (code) => {
        this.code = code;
        this.save(this.draftChange(code));
      },
      this.language(),
    );
  }

  protected override restore(progress: Progress): void {
    const draft = this.draftIn(progress);
    if (draft === undefined) return;
    this.code = draft;
    this.editor?.setCode(draft);
  }

  protected override busy(on: boolean, state: "checking" | "running" = "checking"): void {
    super.busy(on, state);
    setAvailable(this.runButton, !on);
    // The code a check or run started with stays what it shows (and the view stays its own).
    setAvailable(this.resetButton, !on);
  }
}
