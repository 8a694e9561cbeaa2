import assert from "node:assert/strict";
import { test } from "node:test";
import { type Abandoned, type OrderedCell, plan, runCellsBefore, runInOrder, type Verdict, verdictOf } from "../src/components/cell/order";
import type { RunOutcome } from "../src/runtime/python";

/** A cell played by the test: it ends each run with the verdict it is given and
 * writes what happens to it into the shared `events`. */
class FakeCell implements OrderedCell {
  ran = false;
  constructor(
    readonly label: string,
    private readonly events: string[],
    private readonly verdict: Verdict = "ok",
    readonly check = false,
    readonly hidden = check,
  ) {}

  queue(quiet: boolean): void {
    this.events.push(`${this.label} wartet${quiet ? " still" : ""}`);
  }

  async execute(): Promise<Verdict> {
    this.events.push(`${this.label} läuft`);
    await Promise.resolve();
    if (this.verdict === "ok" || this.verdict === "error") this.ran = true;
    return this.verdict;
  }

  unqueue(): void {
    this.events.push(`${this.label} wartet nicht mehr`);
  }

  abandon(why: Abandoned): void {
    this.events.push(`${this.label}: ${why.kind === "cancelled" ? "abgebrochen" : `${why.label} schlug fehl`}`);
  }

  noteCheckFailed(): void {
    this.events.push(`${this.label}: Text weicht ab`);
  }
}

function cells(events: string[], ...specs: [string, Verdict?, boolean?][]): FakeCell[] {
  return specs.map(([label, verdict, check]) => new FakeCell(label, events, verdict ?? "ok", check ?? false));
}

test("the earlier cells that have not run come first, quietly, then the cell, then its checks", async () => {
  const events: string[] = [];
  const [a, b, c, check, d] = cells(events, ["A"], ["B"], ["C"], ["Prüfung", "ok", true], ["D"]);
  b!.ran = true;
  await runInOrder([a!, b!, c!, check!, d!], c!);
  assert.deepEqual(events, ["A wartet still", "C wartet", "A läuft", "C läuft", "Prüfung läuft"]);
});

test("a cell that ran since Python started is not run again; one that never ran is", () => {
  const events: string[] = [];
  const [a, b, c, first, second, d] = cells(events, ["A"], ["B"], ["C"], ["P1", "ok", true], ["P2", "ok", true], ["D"]);
  a!.ran = true;
  assert.deepEqual(plan([a!, b!, c!, first!, second!, d!], c!), { before: [b], checks: [first, second] });
  assert.deepEqual(plan([a!, b!, c!, first!, second!, d!], a!), { before: [], checks: [] });
});

test("an earlier cell that fails stops the rest; the cell says which one", async () => {
  const events: string[] = [];
  const [a, b, c] = cells(events, ["A", "error"], ["B"], ["C"]);
  await runInOrder([a!, b!, c!], c!);
  assert.deepEqual(events, ["A wartet still", "B wartet still", "C wartet", "A läuft", "B wartet nicht mehr", "C: A schlug fehl"]);
});

test("a failing check before the cell stops nothing: the visible cell before it says so", async () => {
  const events: string[] = [];
  const [a, check, b] = cells(events, ["A"], ["Prüfung", "error", true], ["B"]);
  await runInOrder([a!, check!, b!], b!);
  assert.deepEqual(events, ["A wartet still", "Prüfung wartet still", "B wartet", "A läuft", "Prüfung läuft", "A: Text weicht ab", "B läuft"]);
});

test("a failing check after the cell notes it there and ends the checks", async () => {
  const events: string[] = [];
  const [a, first, second] = cells(events, ["A"], ["P1", "error", true], ["P2", "ok", true]);
  await runInOrder([a!, first!, second!], a!);
  assert.deepEqual(events, ["A wartet", "A läuft", "P1 läuft", "A: Text weicht ab"]);
});

test("a check at the start of a session notes its failure at the reader's cell", async () => {
  const events: string[] = [];
  const [check, a] = cells(events, ["Prüfung", "error", true], ["A"]);
  await runInOrder([check!, a!], a!);
  assert.ok(events.includes("A: Text weicht ab"), events.join(" | "));
});

test("Stopp while Python loads ends the cells still waiting; the cell says it was cancelled", async () => {
  const events: string[] = [];
  const [a, b, c] = cells(events, ["A", "cancelled"], ["B"], ["C"]);
  await runInOrder([a!, b!, c!], c!);
  assert.deepEqual(events.slice(3), ["A läuft", "B wartet nicht mehr", "C: abgebrochen"]);
});

test("a restart ends the order where it is: every cell heard of it already", async () => {
  const events: string[] = [];
  const [a, b, c] = cells(events, ["A"], ["B", "restarted"], ["C"]);
  await runInOrder([a!, b!, c!], c!);
  assert.deepEqual(events.slice(3), ["A läuft", "B läuft"]);
});

test("a cell that fails (or is stopped) runs no checks", async () => {
  for (const verdict of ["error", "cancelled", "restarted"] as const) {
    const events: string[] = [];
    const [a, check] = cells(events, ["A", verdict], ["Prüfung", "ok", true]);
    await runInOrder([a!, check!], a!);
    assert.deepEqual(events, ["A wartet", "A läuft"], verdict);
  }
});

test("a run's outcome is the cell's verdict; the error raises= names counts as ok", () => {
  const done = (error_type: string | null): RunOutcome => ({
    kind: "done",
    result: { output: [], value: null, svg: null, error: error_type && `${error_type}: x`, error_type, truncated: false },
  });
  assert.equal(verdictOf(done(null), null), "ok");
  assert.equal(verdictOf(done("ZeroDivisionError"), "ZeroDivisionError"), "ok");
  assert.equal(verdictOf(done("ZeroDivisionError"), null), "error");
  assert.equal(verdictOf(done("KeyError"), "ZeroDivisionError"), "error");
  assert.equal(verdictOf({ kind: "failed", message: "kaputt" }, null), "error");
  assert.equal(verdictOf({ kind: "unavailable", message: "offline" }, null), "error");
  assert.equal(verdictOf({ kind: "cancelled", by: null }, null), "cancelled");
  assert.equal(verdictOf({ kind: "restarted", reason: "stopp", by: null }, null), "restarted");
});

test("what stands before a prediction runs quietly: the session's earlier cells that have not run", async () => {
  const events: string[] = [];
  const [a, b, check, c] = cells(events, ["A"], ["B"], ["Prüfung", "error", true], ["C"]);
  a!.ran = true;
  // The prediction stands after the check, before C.
  assert.deepEqual(await runCellsBefore([a!, b!, check!, c!], 3), { kind: "ok" });
  assert.deepEqual(events, ["B wartet still", "Prüfung wartet still", "B läuft", "Prüfung läuft", "B: Text weicht ab"]);
});

test("a failing earlier cell stops what stands after it, and says which", async () => {
  const events: string[] = [];
  const [a, b, c] = cells(events, ["A", "error"], ["B"], ["C"]);
  assert.deepEqual(await runCellsBefore([a!, b!, c!], 2), { kind: "failed-before", label: "A" });
  assert.deepEqual(events, ["A wartet still", "B wartet still", "A läuft", "B wartet nicht mehr"]);
  assert.deepEqual(await runCellsBefore([a!, b!, c!], 0), { kind: "ok" }); // nothing before
});
