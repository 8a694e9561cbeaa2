/**
 * A console's transcript and picture, with the markup of lessonkit/render.py
 * (render_console_entry), so live entries look like the build's.
 */
import type { ConsoleResultData } from "../../generated/contract";
import { sanitizeSvg } from "../output/render";

/** A command's answer (`pysim.console.ConsoleResult`, declared in lessonkit/contract.py). */
export type ConsoleResult = ConsoleResultData;

const PROMPT = "$ ";

function span(className: string, text: string): HTMLSpanElement {
  const node = document.createElement("span");
  node.className = className;
  node.textContent = text;
  return node;
}

/** The answer, a block per line (as lessonkit/render.py's render_console_lines). */
function answer(text: string): HTMLSpanElement {
  const out = span("lk-console__out", "");
  out.append(...text.split("\n").map((line) => span("lk-console__line", `${line}\n`)));
  return out;
}

export class Transcript {
  constructor(
    private readonly log: HTMLElement,
    private readonly picture: HTMLElement,
  ) {}

  /** Append a command and its answer; keep the newest entry in view. */
  append(command: string, result: ConsoleResult): void {
    if (result.clear) {
      this.log.replaceChildren();
      return;
    }
    const entry = span(`lk-console__entry lk-console__entry--${result.ok ? "ok" : "error"}`, "");
    entry.append(span("lk-console__cmd", PROMPT + command), "\n");
    if (result.text) entry.append(answer(result.text));
    this.log.append(entry);
    this.log.scrollTop = this.log.scrollHeight;
    if (result.svg) this.picture.replaceChildren(sanitizeSvg(result.svg));
  }

  /** A line from the page itself (completion candidates, loading problems). */
  note(text: string): void {
    this.log.append(span("lk-console__note", text), "\n");
    this.log.scrollTop = this.log.scrollHeight;
  }
}
