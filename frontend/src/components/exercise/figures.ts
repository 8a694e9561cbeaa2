/** A challenge's run in words (./challenge.ts), without the DOM: unit-tested under Node. */
import type { SeedOutcomeData } from "../../generated/contract";

/** `count(1, "Operation", "Operationen")` → "1 Operation"; otherwise the plural. */
export function count(n: number, one: string, many: string): string {
  return `${n.toLocaleString("de-DE")} ${n === 1 ? one : many}`;
}

/** The figures of a run in one German line. */
export function figures(outcome: SeedOutcomeData): string {
  const k = outcome.kennzahlen;
  const latenz =
    k.latenz_p50 === null ? "" : ` · Latenz p50 ${k.latenz_p50}, p99 ${k.latenz_p99}, max ${k.latenz_max} Ticks`;
  const ausbreitung =
    k.ausbreitung_median === null
      ? ""
      : ` · bis alle Knoten einen Wert kannten: Median ${k.ausbreitung_median}, ` +
        `längstens ${k.ausbreitung_max} Ticks`;
  // A run stopped at the event limit leaves messages on the way: they were not lost.
  const unterwegs = k.unterwegs > 0 ? `, ${k.unterwegs.toLocaleString("de-DE")} noch unterwegs, als der Lauf endete` : "";
  return (
    `${count(outcome.operationen, "Operation", "Operationen")} · ` +
    `${count(k.nachrichten, "Nachricht", "Nachrichten")} zwischen Knoten ` +
    `(${k.je_operation.toLocaleString("de-DE")} je Operation, ${k.verloren.toLocaleString("de-DE")} verloren${unterwegs}) · ` +
    `verfügbar ${Math.round(k.ok_anteil * 100)} %${latenz}${ausbreitung}`
  );
}
