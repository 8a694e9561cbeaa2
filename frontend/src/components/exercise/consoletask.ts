/**
 * A console task: the reader brings a console (../console) into a state; the check reads it.
 */
import { getBlock } from "../blocks";
import type { ConsoleTaskData } from "../../generated/contract";
import type { PythonRuntime } from "../../runtime/python";
import { Exercise } from "./base";

export class ConsoleTaskExercise extends Exercise<ConsoleTaskData> {
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
    this.settle(outcome.ok);
  }
}
