/**
 * A console's transcript and picture, with the markup of lessonkit/build/render.py
 * (render_console_entry), so live entries look like the build's.
 *
 * What it shows is bounded, so a reader's session never slows the page down: a command
 * is shown up to `MAX_SHOWN_COMMAND` characters and an answer up to `MAX_SHOWN_ANSWER`
 * (each with a German note of its full length), and the log keeps the newest
 * `MAX_ENTRIES` entries and notes (one note at the top says that older ones were
 * removed). An append never reads the log's size: it scrolls to the end once per frame,
 * and only when the reader was at the end.
 */
import type { ConsoleResultData } from "../../generated/contract";
import { visibleBidi } from "../bidi";
import { sanitizeSvg } from "../output/render";

/** A command's answer (`pysim.console.ConsoleResult`, declared in lessonkit/build/contract.py). */
export type ConsoleResult = ConsoleResultData;

const PROMPT = "$ ";

/** The most characters of a command the transcript shows. */
export const MAX_SHOWN_COMMAND = 300;
/** The most characters of an answer the transcript shows. */
export const MAX_SHOWN_ANSWER = 20_000;
/** The most entries and notes the transcript keeps (the oldest go first). */
export const MAX_ENTRIES = 300;

const DROPPED = "lk-console__note--dropped";

/** `text` up to `max` characters; longer, cut there with a note of its length. */
export function shorten(text: string, max: number, separator = " "): string {
  if (text.length <= max) return text;
  return `${text.slice(0, max)}${separator}… (gekürzt, ${text.length.toLocaleString("de-DE")} Zeichen)`;
}

function span(className: string, text: string): HTMLSpanElement {
  const node = document.createElement("span");
  node.className = className;
  node.textContent = text;
  return node;
}

/**
 * Code in backticks ("Meintest du `produce`?"), the rule of lessonkit/build/render.py's CODE: the
 * opening backtick starts the line or follows a space or "(", the code neither contains a
 * backtick nor starts or ends with a space, and the closing backtick ends the line or comes
 * before a space or punctuation. (No lookbehind: Safari before 16.4 cannot parse one.)
 */
const CODE = /(^|[ (])`([^` ](?:[^`]*[^` ])?)`(?=[ .,:;!?)]|$)/g;

/** One line of an answer, its code as `<code>`: built from text nodes, never from HTML. */
function line(text: string): HTMLSpanElement {
  text = visibleBidi(text);
  // An indented line is a table's row (`status`): it keeps its columns (lessonkit/build/render.py).
  const node = span(text.startsWith("  ") ? "lk-console__line lk-console__line--row" : "lk-console__line", "");
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

/** The answer, a block per line (as lessonkit/build/render.py's render_console_lines). */
function answer(text: string): HTMLSpanElement {
  const out = span("lk-console__out", "");
  out.append(...text.split("\n").map(line));
  return out;
}

export class Transcript {
  /** Whether the reader was at the end of the log when it last scrolled. */
  private atEnd = true;
  private scrollPending = false;
  /** The picture drawn last and the node it became: an answer with the same picture (most
   * commands change nothing that is drawn) leaves it as it is, without sanitising and laying
   * it out again. */
  private drawn: { svg: string; node: ChildNode | null } | null = null;

  constructor(
    private readonly log: HTMLElement,
    private readonly picture: HTMLElement,
  ) {
    // Measured when the reader (or the page) scrolls, where the layout is fresh anyway.
    log.addEventListener(
      "scroll",
      () => (this.atEnd = log.scrollTop + log.clientHeight >= log.scrollHeight - 8),
      { passive: true },
    );
  }

  /** Append a command and its answer; keep the newest entry in view. */
  append(command: string, result: ConsoleResult): void {
    if (result.clear) {
      this.log.replaceChildren();
      this.atEnd = true;
      return;
    }
    const entry = span(`lk-console__entry lk-console__entry--${result.ok ? "ok" : "error"}`, "");
    entry.append(span("lk-console__cmd", PROMPT + visibleBidi(shorten(command, MAX_SHOWN_COMMAND))), "\n");
    if (result.text) entry.append(answer(shorten(result.text, MAX_SHOWN_ANSWER, "\n")));
    this.add(entry);
    if (result.svg) this.draw(result.svg);
  }

  /** Show `svg` as the picture, unless it is the one shown (and still there). */
  private draw(svg: string): void {
    const node = this.picture.firstChild;
    if (this.drawn && this.drawn.svg === svg && node !== null && node === this.drawn.node) return;
    this.picture.replaceChildren(sanitizeSvg(svg));
    this.drawn = { svg, node: this.picture.firstChild };
  }

  /** A line from the page itself (completion candidates, loading problems). */
  note(text: string): void {
    this.add(span("lk-console__note", shorten(text, MAX_SHOWN_COMMAND + 200)), "\n");
  }

  /** Append `nodes` (one entry or note), drop the oldest beyond MAX_ENTRIES, scroll. */
  private add(...nodes: (Node | string)[]): void {
    this.log.append(...nodes);
    let first = this.log.firstElementChild;
    const dropped = first?.classList.contains(DROPPED) ?? false;
    if (this.log.childElementCount > MAX_ENTRIES + (dropped ? 1 : 0)) {
      if (!dropped) {
        const note = span(`lk-console__note ${DROPPED}`, `Ältere Einträge wurden entfernt: Hier stehen die letzten ${MAX_ENTRIES}.`);
        this.log.prepend(note, "\n");
        first = note;
      }
      const oldest = first!.nextElementSibling!;
      const after = oldest.nextSibling;
      if (after?.nodeType === Node.TEXT_NODE && after.textContent === "\n") after.remove();
      oldest.remove();
    }
    this.scrollToEnd();
  }

  /** Once per frame, and only when the reader had not scrolled up to read. */
  private scrollToEnd(): void {
    if (!this.atEnd || this.scrollPending) return;
    this.scrollPending = true;
    requestAnimationFrame(() => {
      this.scrollPending = false;
      if (this.atEnd) this.log.scrollTop = this.log.scrollHeight;
    });
  }
}
