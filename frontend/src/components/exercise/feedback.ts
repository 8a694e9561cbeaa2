/** What an exercise tells the reader after `Prüfen`: a verdict, notes and, for tasks, each check.
 * Texts from Python are cut to a size the page lays out at once, saying so (./capped.ts). */
import type { TaskOutcomeData } from "../../generated/contract";
import { codeParts } from "./attempts";
import { cut, MAX_MESSAGE_CHARS, MAX_OUTPUT_CHARS, shown } from "./capped";
import { element } from "../dom";

/** A task checked (`lessonkit.runtime.checks.TaskOutcome`, declared in lessonkit/build/contract.py). */
export type TaskOutcome = TaskOutcomeData;

/** A note's text with its `code` as <code> (the notes come from lessonkit.runtime.checks). */
function withCode(node: HTMLElement, text: string): HTMLElement {
  for (const part of codeParts(text)) node.append(part.code ? element("code", "", part.text) : part.text);
  return node;
}

export class Feedback {
  constructor(private readonly root: HTMLOutputElement) {}

  clear(): void {
    this.root.replaceChildren();
    this.root.removeAttribute("data-verdict");
  }

  /** A one-line verdict: solved, not yet, or a problem with the input itself. */
  verdict(kind: "right" | "wrong" | "invalid" | "info", text: string): void {
    this.root.dataset["verdict"] = kind;
    const mark = { right: "✓ ", wrong: "✗ ", invalid: "", info: "" }[kind];
    this.root.append(element("p", `lk-feedback lk-feedback--${kind}`, mark + cut(text, MAX_MESSAGE_CHARS)));
  }

  /** The list of the author's checks, each passed or failed with its message. */
  checks(outcome: TaskOutcome): void {
    if (outcome.error) {
      this.root.append(element("pre", "lk-output__error", shown(outcome.error, MAX_MESSAGE_CHARS)));
    }
    if (outcome.checks.length === 0) return;
    const list = element("ul", "lk-checks");
    for (const check of outcome.checks) {
      const item = element("li", `lk-check lk-check--${check.ok ? "ok" : "failed"}`);
      item.append(element("span", "lk-check__mark", check.ok ? "✓" : "✗"), " ", element("span", "lk-check__name", check.name));
      if (!check.ok && check.message) item.append(element("div", "lk-check__message", shown(check.message, MAX_MESSAGE_CHARS)));
      for (const note of check.notes) item.append(withCode(element("div", "lk-check__note"), cut(note, MAX_MESSAGE_CHARS)));
      list.append(item);
    }
    this.root.append(list);
  }

  /** What the check forgave or what comes next ("Noch 2 Versuche …"): quieter than the verdict. */
  note(text: string): void {
    if (text) this.root.append(withCode(element("p", "lk-feedback-note"), cut(text, MAX_MESSAGE_CHARS)));
  }

  /** Something of the page's own, e.g. a button that restarts Python. */
  append(node: Node): void {
    this.root.append(node);
  }

  pre(text: string, className = "lk-output__text"): void {
    if (text) this.root.append(element("pre", className, shown(text, MAX_OUTPUT_CHARS)));
  }
}
