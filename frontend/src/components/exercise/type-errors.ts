/** What the feedback says of a TypeScript node with type errors (./challenge-exercise.ts). */
import type { TsDiagnostic } from "../../generated/contract";

/** How many type errors the feedback lists (the editor marks every one). */
const LISTED = 5;

/** The feedback for a node with type errors: how many, then the first few at their lines. */
export function typeErrors(problems: TsDiagnostic[]): { head: string; lines: string } {
  const count = problems.length === 1 ? "einen Typfehler" : `${problems.length} Typfehler`;
  const listed = problems.slice(0, LISTED).map((p) => `Zeile ${p.line}: ${p.message}`);
  const more = problems.length > LISTED ? [`… und ${problems.length - LISTED} weitere (im Editor markiert).`] : [];
  return {
    head: `Dein TypeScript hat ${count} und läuft so noch nicht (im Editor an der Zeile markiert).`,
    lines: [...listed, ...more].join("\n"),
  };
}
