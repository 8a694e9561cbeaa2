/**
 * A code task: the reader's code in an editor, run without a verdict (Ausführen) or checked
 * against the author's checks (Prüfen).
 */
import { mountRunPanel, type RunPanel, runOutput } from "../run";
import type { CodeTaskData } from "../../generated/contract";
import type { PythonRuntime } from "../../runtime/python";
import { EditorExercise, runWords } from "./base";

export class CodeTaskExercise extends EditorExercise<CodeTaskData> {
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
    this.settle(outcome.ok);
  }
}
