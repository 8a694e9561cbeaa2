/**
 * Texts an exercise shows from Python, cut to a size the page can lay out at once, without
 * the DOM: unit-tested under Node.
 *
 * Python caps what it sends (lessonkit/runtime/checks.py, lessonkit/runtime/challenges.py), but the reader's
 * code runs in the same worker and a verdict quotes what a node produced: a 5,000,000-character
 * exception text laid out as one paragraph held the page for seconds. So the page keeps its own
 * limits, whatever arrives, and says what it cut; direction-switching characters are written as
 * their code point (../bidi.ts), as in a cell's output.
 */
import type { SeedOutcomeData } from "../../generated/contract";
import { visibleBidi } from "../bidi";

/** Characters of one sentence of a challenge's verdict: the course's checkers write a few
 * hundred (Python cuts an exception text at 500 and a quoted value at 100). */
export const MAX_SENTENCE_CHARS = 2_000;
/** Sentences of one verdict shown; the rest are counted in one more. */
export const MAX_SENTENCES = 30;
/** Characters of an error, a check's message or a note: a cell's traceback, as
 * components/output/render.ts MAX_VALUE_CHARS. */
export const MAX_MESSAGE_CHARS = 11_000;
/** Characters of a check's printed output: a cell's (render.ts MAX_SHOWN_CHARS). */
export const MAX_OUTPUT_CHARS = 201_000;
/** Characters of a run's identity (the replay box takes as many). */
export const MAX_KENNUNG_CHARS = 2_000;

const german = (count: number): string => count.toLocaleString("de-DE");

/** `text` at most `max` characters long, with a German note of how much was cut; never cut
 * inside a character outside the Basic Multilingual Plane (a surrogate pair); the note reads
 * as Python's (`pysim.fehler.gekuerzt`). Anything but a string reads as "". */
export function cut(text: unknown, max: number): string {
  if (typeof text !== "string") return "";
  if (text.length <= max) return text;
  let end = max;
  const last = text.charCodeAt(end - 1);
  if (last >= 0xd800 && last <= 0xdbff) end -= 1;
  return `${text.slice(0, end)}… (${german(text.length - end)} Zeichen mehr, gekürzt)`;
}

/** A text from the reader's node for the page: cut, direction switches made visible. */
export function shown(text: unknown, max: number): string {
  return visibleBidi(cut(text, max));
}

/** The sentences of a verdict for the page: at most MAX_SENTENCES, each cut. */
export function verdictSentences(urteil: unknown): string[] {
  const sentences = Array.isArray(urteil) ? urteil.filter((s): s is string => typeof s === "string") : [];
  const kept = sentences.slice(0, MAX_SENTENCES).map((sentence) => shown(sentence, MAX_SENTENCE_CHARS));
  const more = sentences.length - kept.length;
  if (more > 0) kept.push(`… und ${german(more)} ${more === 1 ? "weiterer Satz" : "weitere Sätze"} des Urteils, gekürzt.`);
  return kept;
}

/** A seed's outcome with every text cut for the page (the picture has its own caps:
 * components/output/render.ts `sanitizeSvg`). */
export function cappedOutcome(outcome: SeedOutcomeData): SeedOutcomeData {
  return {
    ...outcome,
    error: outcome.error === null ? null : shown(outcome.error, MAX_MESSAGE_CHARS),
    urteil: verdictSentences(outcome.urteil),
    kennung: cut(outcome.kennung, MAX_KENNUNG_CHARS),
    svg: typeof outcome.svg === "string" ? outcome.svg : "",
  };
}
