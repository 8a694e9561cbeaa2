/**
 * A challenge: the reader's node in an editor, run on one seed (Ausführen) or checked on
 * the author's seeds until one fails (Prüfen); the view of its runs is ./challenge.ts.
 *
 * Where the author wrote the node in TypeScript too (`--- start-ts`), the reader picks the
 * language above the editor (./language.ts, one choice for the whole site): each language
 * keeps its own draft, `Zurücksetzen` brings back its own start, the solution shows in it, and
 * a TypeScript node is type-checked (strict) before it runs: its errors stand at their lines
 * in the editor and in the feedback, and nothing runs.
 */
import type { ChallengeData } from "../../generated/contract";
import type { PythonRuntime } from "../../runtime/python";
import { EditorExercise } from "./base";
import { Challenge, type NodeSource } from "./challenge";
import { LanguageChoice, type NodeLanguage, chooseLanguage, onLanguageChange, storedLanguage } from "./language";
import type { Progress } from "./progress";
import { checkVerdict, runs, seedRange } from "./seeds";
import { typeErrors } from "./type-errors";

export class ChallengeExercise extends EditorExercise<ChallengeData> {
  private readonly challenge: Challenge;
  /** The editor's language (`undefined` only while the base class is built: the stored one). */
  private chosen?: NodeLanguage;
  private readonly choice: LanguageChoice | null;
  /** A language picked elsewhere while this challenge was busy: taken once it is idle. */
  private pending: NodeLanguage | null = null;

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
      (): NodeSource => ({ code: this.source(), sprache: this.language() }),
    );
    this.runButton.addEventListener("click", () => void this.guard(() => this.runOnce(), "running"));
    // From here on the language is this challenge's own (the stored one may change under it).
    this.chosen = this.language();
    this.choice = this.hasTypeScript() ? new LanguageChoice(this.data.label, this.chosen, (l) => this.pick(l)) : null;
    if (this.choice) {
      root.querySelector(".lk-exercise__code")?.before(this.choice.element);
      onLanguageChange((language) => this.follow(language));
    }
    this.showSolutionIn(this.language());
  }

  private hasTypeScript(): boolean {
    return this.data.start_ts !== null && this.data.loesung_ts !== null;
  }

  protected override language(): NodeLanguage {
    return this.chosen ?? (this.hasTypeScript() ? storedLanguage() : "python");
  }

  protected override startCode(): string {
    return (this.language() === "typescript" ? this.data.start_ts : this.data.start) ?? "";
  }

  protected override draftIn(progress: Progress | null): string | undefined {
    return this.language() === "typescript" ? progress?.draft_ts : progress?.draft;
  }

  protected override draftChange(code: string): Partial<Progress> {
    return this.language() === "typescript" ? { draft_ts: code } : { draft: code };
  }

  /** The reader picked `language` here: every challenge of the site follows. */
  private pick(language: NodeLanguage): void {
    chooseLanguage(language);
  }

  /** Switch to `language` (picked here, on another challenge or in another tab): the
   * editor shows that language's draft or start; what the last run showed goes with it. */
  private follow(language: NodeLanguage): void {
    if (!this.choice || language === this.language()) return;
    if (this.root.dataset["state"] === "checking" || this.root.dataset["state"] === "running") {
      this.pending = language;
      return;
    }
    this.chosen = language;
    this.choice.show(language);
    this.code = this.draftIn(this.progress.load().current) ?? this.startCode();
    this.editor?.setLanguage(language, this.code);
    this.feedback.clear();
    this.clearRun();
    this.showSolutionIn(language);
  }

  /** The solution's code in the reader's language (the explanation is the same for both). */
  private showSolutionIn(language: NodeLanguage): void {
    for (const part of this.root.querySelectorAll<HTMLElement>("[data-lk-solution-language]")) {
      part.hidden = part.dataset["lkSolutionLanguage"] !== language;
    }
  }

  protected clearRun(): void {
    this.challenge?.clear();
  }

  protected override busy(on: boolean, state: "checking" | "running" = "checking"): void {
    super.busy(on, state);
    this.challenge?.setAvailable(!on);
    this.choice?.setAvailable(!on);
    if (!on && this.pending !== null) {
      const language = this.pending;
      this.pending = null;
      this.follow(language);
    }
  }

  /**
   * A TypeScript node is checked for type errors before it runs (strict, in the Python
   * worker, against the declarations of `Node`): each stands at its line in the editor; with
   * any, the feedback lists them and nothing runs. True when the node may run.
   */
  private async typesHold(): Promise<boolean> {
    if (this.language() !== "typescript") return true;
    const problems = await this.runtime.call("typescript.check", { code: this.source() });
    this.editor?.showProblems(problems);
    if (problems.length === 0) return true;
    const { head, lines } = typeErrors(problems);
    this.feedback.clear();
    this.feedback.verdict("invalid", head);
    this.feedback.pre(lines, "lk-output__error");
    return false;
  }

  private async runOnce(): Promise<void> {
    if (await this.typesHold()) await this.challenge.run();
  }

  protected async check(): Promise<void> {
    this.feedback.clear();
    if (!(await this.typesHold())) {
      this.challenge.clear();
      return;
    }
    const result = await this.challenge.check();
    const { kind, text } = checkVerdict(result, this.data.vorgabe.seeds);
    this.feedback.verdict(kind, text);
    this.settle(kind === "right");
  }
}
