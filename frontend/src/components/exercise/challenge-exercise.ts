/**
 * A challenge: the reader's node in an editor, run on one seed (Ausführen) or checked on
 * the author's seeds until one fails (Prüfen); the view of its runs is ./challenge.ts.
 */
import type { ChallengeData } from "../../generated/contract";
import type { PythonRuntime } from "../../runtime/python";
import { EditorExercise } from "./base";
import { Challenge } from "./challenge";
import { checkVerdict, runs, seedRange } from "./seeds";

export class ChallengeExercise extends EditorExercise<ChallengeData> {
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
    this.settle(kind === "right");
  }
}
