/**
 * Prüfen's runs of a challenge (./challenge.ts), without the DOM: unit-tested under Node.
 *
 * A verdict rests on the seeds 1..N of the challenge (`vorgabe.seeds`, the page says how
 * many): they run one after the other, each one call into Python, and the first seed that
 * fails ends the check (Python has shrunk it and drawn its picture). A node that passes
 * every seed has solved the challenge. `Weitere Läufe` runs the seeds after those, in the same
 * way, for a curious reader: what they find is real, but it does not change the verdict.
 */
import type { SeedOutcomeData } from "../../generated/contract";

/** How many further seeds one press of `Weitere Läufe` runs. */
export const MORE = 20;

export interface SeedsResult {
  /** The first seed run. */
  first: number;
  /** How many seeds passed, from `first` on, before one failed (or all of them). */
  passed: number;
  /** The seed that failed (shrunk, judged, with its picture), or null. */
  failed: SeedOutcomeData | null;
  /** The reader's code did not run (its outcome holds the message), or null. */
  error: SeedOutcomeData | null;
}

/** Runs seeds `first`..`last`, one at a time, until one fails or the code does not run. */
export async function runSeeds(
  first: number,
  last: number,
  judge: (seed: number) => Promise<SeedOutcomeData>,
  progress: (passed: number) => void = () => {},
): Promise<SeedsResult> {
  const result: SeedsResult = { first, passed: 0, failed: null, error: null };
  for (let seed = first; seed <= last; seed++) {
    const outcome = await judge(seed);
    if (outcome.error !== null) return { ...result, error: outcome };
    if (!outcome.ok) return { ...result, failed: outcome };
    result.passed += 1;
    progress(result.passed);
  }
  return result;
}

/** „Seed 4“ or „Seeds 1–16“. */
export function seedRange(first: number, last: number): string {
  return first === last ? `Seed ${first}` : `Seeds ${first}–${last}`;
}

/** „1 Lauf“, „40 Läufe“; with `dative`: „40 Läufen“. */
export function runs(count: number, dative = false): string {
  return count === 1 ? "1 Lauf" : `${count} ${dative ? "Läufen" : "Läufe"}`;
}

/** The status while seeds run: „12 von 40 Läufen bestanden …“. */
export function progressText(passed: number, total: number): string {
  return `${passed} von ${runs(total, true)} bestanden …`;
}

/** The verdict of Prüfen over the seeds 1..`total`. */
export function checkVerdict(result: SeedsResult, total: number): { kind: "right" | "wrong"; text: string } {
  if (result.error !== null) return { kind: "wrong", text: "Dein Code läuft nicht; die Meldung steht unten." };
  if (result.failed === null) {
    return { kind: "right", text: `Gelöst: alle ${runs(total)} bestanden (${seedRange(1, total)}).` };
  }
  const before = result.passed > 0 ? ` ${seedRange(1, result.passed)} ${result.passed === 1 ? "bestand" : "bestanden"} vorher.` : "";
  return {
    kind: "wrong",
    text: `Seed ${result.failed.seed} scheitert.${before} Unten steht, was der Prüfer fand, am kleinsten Lauf, der noch scheitert.`,
  };
}

/** What `Weitere Läufe` found: seeds after those of the verdict, which it does not change. */
export function moreVerdict(result: SeedsResult, last: number): string {
  if (result.error !== null) return "Dein Code läuft nicht; die Meldung steht unten.";
  if (result.failed === null) {
    return (
      `Auch die weiteren ${runs(last - result.first + 1)} (${seedRange(result.first, last)}) bestanden. ` +
      "Sie zählen nicht zum Urteil von „Prüfen“; sie zeigen, dass dein Knoten auch bei anderen Störungen hält."
    );
  }
  return (
    `Seed ${result.failed.seed} scheitert: Dein Knoten ist nicht richtig, auch wenn „Prüfen“ ihn mit seinen ` +
    "Läufen nicht ertappt hat. Am Urteil von „Prüfen“ ändert das nichts; unten steht, was der Prüfer fand."
  );
}
