/**
 * A prediction: the reader says what code prints (or returns) before running it; with the
 * solution (or solved) the code becomes editable and runnable.
 */
import type { CellEditor } from "../cell/editor";
import { mountRunPanel, type RunPanel, runOutput } from "../run";
import type { PredictionData } from "../../generated/contract";
import type { PythonRuntime } from "../../runtime/python";
import { triesNote, wrongVerdict } from "./attempts";
import { type CellsAbove, editorIn, Exercise, runWords } from "./base";
import type { Progress } from "./progress";

export class PredictionExercise extends Exercise<PredictionData> {
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
