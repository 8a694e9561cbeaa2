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

/**
 * Code in backticks ("Meintest du `produce`?"), the rule of lessonkit/render.py's CODE: the
 * opening backtick starts the line or follows a space or "(", the code neither contains a
 * backtick nor starts or ends with a space, and the closing backtick ends the line or comes
 * before a space or punctuation. (No lookbehind: Safari before 16.4 cannot parse one.)
 */
const CODE = /(^|[ (])`([^` ](?:[^`]*[^` ])?)`(?=[ .,:;!?)]|$)/g;

/**
 * Invisible characters that switch the writing direction would mirror the rest of a line:
 * written as their code point ("<U+202E>"), as lessonkit/render.py's visible_bidi does.
 */
const BIDI = /[\u202a-\u202e\u2066-\u2069]/g;

function visibleBidi(text: string): string {
  return text.replace(BIDI, (c) => {
    const code = c.charCodeAt(0).toString(16).toUpperCase().padStart(4, "0");
    return `<U+${code}>`;
  });
}

/** One line of an answer, its code as `<code>`: built from text nodes, never from HTML. */
function line(text: string): HTMLSpanElement {
  text = visibleBidi(text);
  const node = span("lk-console__line", "");
  if (!text.startsWith(" ")) {
    let done = 0;
    for (const match of text.matchAll(CODE)) {
      const code = match[2]!;
      const tick = match.index + match[1]!.length;
      node.append(text.slice(done, tick));
      const element = document.createElement("code");
      element.className = "lk-console__code";
      element.textContent = code;
      node.append(element);
      done = tick + code.length + 2;
    }
    text = text.slice(done);
  }
  node.append(`${text}\n`);
  return node;
}

/** The answer, a block per line (as lessonkit/render.py's render_console_lines). */
function answer(text: string): HTMLSpanElement {
  const out = span("lk-console__out", "");
  out.append(...text.split("\n").map(line));
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
    entry.append(span("lk-console__cmd", PROMPT + visibleBidi(command)), "\n");
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
