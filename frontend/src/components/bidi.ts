/**
 * Invisible characters that switch the writing direction (embeddings U+202A/B, marks of
 * their end U+202C, overrides U+202D/E, isolates U+2066–2069) would mirror the rest of a
 * line a reader sees: a record value or a typed command in a console's transcript, a
 * cell's printed output. They are written as their code point ("<U+202E>") instead, as
 * lessonkit/build/render.py's visible_bidi does for the build's markup.
 */
const BIDI = /[\u202a-\u202e\u2066-\u2069]/g;

/** `text` with each direction-switching character written as `<U+202E>`. */
export function visibleBidi(text: string): string {
  return text.replace(BIDI, (c) => `<U+${c.charCodeAt(0).toString(16).toUpperCase().padStart(4, "0")}>`);
}
