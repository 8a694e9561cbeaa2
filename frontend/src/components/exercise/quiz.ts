/**
 * A quiz: options to choose; each option found wrong keeps its ✗ and explanation.
 */
import type { QuizData } from "../../generated/contract";
import type { PythonRuntime } from "../../runtime/python";
import { judgeQuiz, triesNote, wrongVerdict } from "./attempts";
import { Exercise } from "./base";
import type { Progress } from "./progress";

export class QuizExercise extends Exercise<QuizData> {
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
