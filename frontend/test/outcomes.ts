/**
 * A seed's outcome as Python sends it (`challenge.seed`), for the tests of the views that
 * show one: a failed run with no figures, changed where a test needs it.
 */
import type { SeedFigures, SeedOutcomeData } from "../src/generated/contract";

export function seedOutcome(
  change: Partial<Omit<SeedOutcomeData, "kennzahlen">> & { kennzahlen?: Partial<SeedFigures> } = {},
): SeedOutcomeData {
  const { kennzahlen, ...rest } = change;
  return {
    error: null,
    seed: 1,
    ok: false,
    urteil: [],
    kennung: "",
    operationen: 0,
    operationen_vorher: null,
    svg: "",
    protokoll: [],
    nachrichten: [],
    nachrichten_weggelassen: 0,
    ...rest,
    kennzahlen: {
      nachrichten: 0,
      verloren: 0,
      unterwegs: 0,
      je_operation: 0,
      ok_anteil: 0,
      latenz_p50: null,
      latenz_p99: null,
      latenz_max: null,
      ausbreitung_median: null,
      ausbreitung_max: null,
      ...kennzahlen,
    },
  };
}
