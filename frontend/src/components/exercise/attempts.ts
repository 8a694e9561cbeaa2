/**
 * Trying again (issue 26): what a wrong answer tells the reader without giving the
 * solution away, and when the solution shows by itself. Pure functions: the exercise
 * classes (./index.ts) put their results on the page; frontend/test/attempts.test.ts
 * checks them.
 */

/** A quiz answer judged: right, or which chosen options are wrong and how many are missing. */
export interface QuizJudgement {
  correct: boolean;
  /** Chosen options that are wrong (indices). */
  wrongChosen: number[];
  /** Right options not chosen: how many (not which, that would be the solution). */
  missing: number;
  /** What is wrong, in German, without naming a right option: empty when correct. */
  detail: string;
}

/** "1 deiner Antworten stimmt nicht", "2 richtige fehlen noch": German counts. */
function count(n: number, one: string, many: string): string {
  return `${n} ${n === 1 ? one : many}`;
}

export function judgeQuiz(chosen: readonly number[], right: readonly number[]): QuizJudgement {
  const rightSet = new Set(right);
  const chosenSet = new Set(chosen);
  const wrongChosen = chosen.filter((index) => !rightSet.has(index));
  const missing = right.filter((index) => !chosenSet.has(index)).length;
  const correct = wrongChosen.length === 0 && missing === 0;
  let detail = "";
  if (!correct && right.length === 1) {
    detail = "Diese Antwort stimmt nicht. Versuch eine andere.";
  } else if (!correct) {
    const wrong = wrongChosen.length;
    const parts: string[] = [];
    if (wrong > 0) parts.push(`${count(wrong, "deiner Antworten stimmt", "deiner Antworten stimmen")} nicht`);
    if (missing > 0) {
      const lacking = `${count(missing, "richtige fehlt", "richtige fehlen")} noch`;
      parts.push(wrong > 0 ? lacking : `Was du gewählt hast, stimmt, aber ${lacking}`);
    }
    detail = `${parts.join(", und ")}.`;
    detail = detail.charAt(0).toUpperCase() + detail.slice(1);
  }
  return { correct, wrongChosen, missing, detail };
}

/** The verdict on a wrong try: "Noch nicht: …", from the second try on with its number
 * (the live region then says something new, also for the same answer twice). */
export function wrongVerdict(detail: string, tries: number): string {
  const which = tries > 1 ? ` (${tries}. Versuch)` : "";
  return `Noch nicht${which}: ${detail}`;
}

/** True when the author's number of tries is used up: the solution shows by itself. */
export function revealDue(tries: number, versuche: number | null): boolean {
  return versuche !== null && tries >= versuche;
}

/** What a wrong try adds about the author's number of tries: how many are left, or
 * that the solution is now shown. Empty without such a number. */
export function triesNote(tries: number, versuche: number | null): string {
  if (versuche === null) return "";
  if (tries >= versuche) return `Nach ${count(versuche, "Versuch", "Versuchen")} steht die Lösung unten.`;
  const left = versuche - tries;
  return `Noch ${count(left, "Versuch", "Versuche")}, dann erscheint die Lösung.`;
}

/** A note's text with `code` in backticks as parts: [text, code, text, …]. */
export function codeParts(text: string): { code: boolean; text: string }[] {
  return text
    .split("`")
    .map((part, index) => ({ code: index % 2 === 1, text: part }))
    .filter((part) => part.text !== "");
}
