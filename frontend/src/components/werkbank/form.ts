/**
 * The workbench's choices and drafts without the DOM (./index.ts draws the form): unit-tested
 * under Node.
 *
 * The form's choices go to Python as text, each field as the reader typed it
 * (`workbench.seed`, lessonkit/runtime/workbench.py): Python reads every one within its limits and
 * names each bad one in German, so nothing here decides what may run. The fault kinds are
 * checkboxes; they go as one comma-separated field in the order the page lists them.
 *
 * Kept per page in localStorage (`lk:<site>:werkbank:<page>`), as drafts are: the choices
 * and one draft per workload. A switch of workload keeps the draft of the one left and
 * offers the draft of the one chosen (its starting code when there is none), so no code of
 * the reader's is lost by a switch.
 */
import type { WorkbenchData } from "../../generated/contract";
import { pagePath } from "../../runtime/page";
import { pageKeyPath, readItem, siteKey, writeItem } from "../../runtime/storage";
import { runs, seedRange, type SeedsResult } from "../exercise/seeds";

/** The form's choices: each field's text; `stoerungen` the kinds ticked. */
export interface Choices {
  last: string;
  knoten: string;
  dauer: string;
  stoerungen: string[];
  anzahl_stoerungen: string;
  verlust_prozent: string;
  seed: string;
  seeds: string;
}

/** What the workbench keeps of a reader. */
export interface Kept {
  choices: Choices;
  /** The reader's code per workload (only where it differs from the starting code). */
  drafts: Record<string, string>;
}

/** The choices the page starts with (the block's `voreinstellung`). */
export function firstChoices(data: WorkbenchData): Choices {
  const given = data.voreinstellung;
  const kinds = new Set((given["stoerungen"] ?? "").split(",").map((kind) => kind.trim()));
  return {
    last: given["last"] ?? data.lasten[0]?.name ?? "",
    knoten: given["knoten"] ?? "",
    dauer: given["dauer"] ?? "",
    stoerungen: data.stoerungen.map((kind) => kind.name).filter((name) => kinds.has(name)),
    anzahl_stoerungen: given["anzahl_stoerungen"] ?? "",
    verlust_prozent: given["verlust_prozent"] ?? "",
    seed: given["seed"] ?? "",
    seeds: given["seeds"] ?? "",
  };
}

/**
 * The choices as Python reads them (`lessonkit.runtime.workbench.lies_wahl`): every field as text,
 * trimmed, the fault kinds in the page's order joined by ", ". `seed` replaces the form's
 * seed (Prüfen runs 1 to `seeds`).
 */
export function optionsFrom(choices: Choices, data: WorkbenchData, seed?: number): Record<string, string> {
  const ticked = new Set(choices.stoerungen);
  return {
    last: choices.last.trim(),
    knoten: choices.knoten.trim(),
    dauer: choices.dauer.trim(),
    stoerungen: data.stoerungen
      .map((kind) => kind.name)
      .filter((name) => ticked.has(name))
      .join(", "),
    anzahl_stoerungen: choices.anzahl_stoerungen.trim(),
    verlust_prozent: choices.verlust_prozent.trim(),
    seed: seed === undefined ? choices.seed.trim() : String(seed),
    seeds: choices.seeds.trim(),
  };
}

/**
 * How many seeds Prüfen goes through: the form's number, at most the limit. One that is no
 * number or out of bounds still asks Python once: it names what is wrong, and nothing runs.
 */
export function seedsToCheck(choices: Choices, data: WorkbenchData): number {
  const text = choices.seeds.trim();
  const wanted = /^[0-9]{1,7}$/.test(text) ? Number(text) : 1;
  return Math.min(Math.max(wanted, 1), data.grenzen.max_seeds);
}

/** The starting code of `last` (empty for a workload the page does not offer). */
export function startOf(data: WorkbenchData, last: string): string {
  return data.lasten.find((workload) => workload.name === last)?.start ?? "";
}

/** The code the editor shows for `last`: the reader's draft, else its starting code. */
export function codeFor(kept: Kept, data: WorkbenchData, last: string): string {
  return kept.drafts[last] ?? startOf(data, last);
}

/** `code` kept as the draft of `last`: a draft equal to the starting code is no draft. */
export function withDraft(kept: Kept, data: WorkbenchData, last: string, code: string): Kept {
  const drafts = { ...kept.drafts };
  if (code === startOf(data, last)) delete drafts[last];
  else drafts[last] = code;
  return { ...kept, drafts };
}

/**
 * A switch from the workload `from` (whose code is now `code`) to `to`: the code left is
 * kept as `from`'s draft, and the editor gets `to`'s draft or starting code.
 */
export function switchWorkload(kept: Kept, data: WorkbenchData, from: string, code: string, to: string): { kept: Kept; code: string } {
  const left = withDraft(kept, data, from, code);
  return { kept: { ...left, choices: { ...left.choices, last: to } }, code: codeFor(left, data, to) };
}

function isRecordOfStrings(value: unknown): value is Record<string, string> {
  return (
    typeof value === "object" &&
    value !== null &&
    !Array.isArray(value) &&
    Object.values(value as Record<string, unknown>).every((item) => typeof item === "string")
  );
}

const TEXT_FIELDS = ["last", "knoten", "dauer", "anzahl_stoerungen", "verlust_prozent", "seed", "seeds"] as const;

/**
 * What was kept, read back (anything on the origin can write there): only a value with
 * exactly the shapes this file writes counts; fault kinds and workloads the page does not
 * offer (any more) are left out. Null: nothing (usable) kept.
 */
export function parseKept(text: string | null, data: WorkbenchData): Kept | null {
  let value: unknown;
  try {
    value = text ? JSON.parse(text) : null;
  } catch {
    return null;
  }
  if (typeof value !== "object" || value === null || Array.isArray(value)) return null;
  const { choices, drafts } = value as Record<string, unknown>;
  if (!isRecordOfStrings(drafts) || typeof choices !== "object" || choices === null) return null;
  const given = choices as Record<string, unknown>;
  const first = firstChoices(data);
  const read: Choices = { ...first };
  for (const field of TEXT_FIELDS) {
    const item = given[field];
    if (typeof item === "string") read[field] = item;
  }
  const offered = new Set(data.stoerungen.map((kind) => kind.name));
  const kinds = given["stoerungen"];
  read.stoerungen = Array.isArray(kinds) ? kinds.filter((kind): kind is string => typeof kind === "string" && offered.has(kind)) : first.stoerungen;
  const workloads = new Set(data.lasten.map((workload) => workload.name));
  if (!workloads.has(read.last)) read.last = first.last;
  const kept: Record<string, string> = {};
  for (const [name, code] of Object.entries(drafts)) if (workloads.has(name)) kept[name] = code;
  return { choices: read, drafts: kept };
}

/** The key the workbench of this page keeps its reader under. */
export function keptKey(page: string = pagePath()): string {
  return siteKey("werkbank", pageKeyPath(page));
}

/** Read what this page's workbench kept (or its first choices, no drafts). */
export function loadKept(data: WorkbenchData, key: string = keptKey()): Kept {
  return parseKept(readItem(key), data) ?? { choices: firstChoices(data), drafts: {} };
}

/** Keep it; false when the browser keeps nothing. */
export function saveKept(kept: Kept, key: string = keptKey()): boolean {
  return writeItem(key, JSON.stringify(kept));
}

/** The line over Prüfen's results: all passed, or the seed that failed and those before it. */
export function checkLine(result: SeedsResult, total: number): { passed: boolean; text: string } {
  if (result.error !== null) return { passed: false, text: "✗ Dein Code läuft nicht; die Meldung steht unten." };
  if (result.failed === null) {
    return { passed: true, text: `✓ ${total === 1 ? "Der Lauf bestand" : `Alle ${runs(total)} bestanden`} (${seedRange(1, total)}).` };
  }
  const before = result.passed > 0 ? ` ${seedRange(1, result.passed)} ${result.passed === 1 ? "bestand" : "bestanden"} vorher.` : "";
  return {
    passed: false,
    text: `✗ Seed ${result.failed.seed} scheitert.${before} Unten steht, was der Prüfer fand, am kleinsten Lauf, der noch scheitert.`,
  };
}
