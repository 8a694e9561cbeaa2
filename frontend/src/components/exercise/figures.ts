/** A challenge's run in words (./challenge.ts), without the DOM: unit-tested under Node. */
import type { SeedOutcomeData } from "../../generated/contract";

/** The figures of a run in one German line. */
export function figures(outcome: SeedOutcomeData): string {
  const k = outcome.kennzahlen;
  const latenz =
    k.latenz_p50 === null ? "" : ` · Latenz p50 ${k.latenz_p50}, p99 ${k.latenz_p99}, max ${k.latenz_max} Ticks`;
  return (
    `${outcome.operationen} Operationen · ${k.nachrichten} Nachrichten zwischen Knoten ` +
    `(${k.je_operation.toLocaleString("de-DE")} je Operation, ${k.verloren} verloren) · ` +
    `verfügbar ${Math.round(k.ok_anteil * 100)} %${latenz}`
  );
}
