/**
 * The order in which a page's cells run (notebook semantics): running a cell first
 * runs the earlier cells of its session that have not run since Python (re)started,
 * quietly, then the cell, then the hidden checks of the prose that follow it.
 *
 * Each step's outcome decides what comes next, nothing else: a cell that fails stops
 * the cells after it; a check that fails stops nothing before the reader's cell (its
 * visible cell says so kindly, later cells need nothing from a check); `Stopp` while
 * Python loads ends the cells still waiting; a restart ends the order (every cell heard
 * of it already, `PythonRuntime.onRestart`). Free of the DOM, so a unit test can play
 * every path (frontend/test/cell-order.test.ts).
 */
import type { RunOutcome } from "../../runtime/python";

/** How one cell's run ended: as the author meant (`ok`, also the error `raises=` names),
 * with an error or without Python (`error`), cancelled while Python loaded, or cut by a
 * restart. */
export type Verdict = "ok" | "error" | "cancelled" | "restarted";

/** A run's outcome as a verdict; `raises`: the error the author wants (`raises=`). */
export function verdictOf(outcome: RunOutcome, raises: string | null): Verdict {
  switch (outcome.kind) {
    case "done":
      return outcome.result.error === null || outcome.result.error_type === raises ? "ok" : "error";
    case "cancelled":
    case "restarted":
      return outcome.kind;
    case "failed":
    case "unavailable":
      return "error";
  }
}

/** Why the reader's cell did not run. */
export type Abandoned = { kind: "cancelled" } | { kind: "failed-before"; label: string };

/** What the order needs of a cell. */
export interface OrderedCell {
  readonly label: string;
  readonly hidden: boolean;
  /** A hidden check of the prose. */
  readonly check: boolean;
  /** Ran since Python (re)started: what it defines is there. */
  readonly ran: boolean;
  /** Wait for its turn; `quiet`: a prerequisite, its status is not announced. */
  queue(quiet: boolean): void;
  /** Its turn: run. */
  execute(): Promise<Verdict>;
  /** Its turn will not come: waiting no more. */
  unqueue(): void;
  /** The reader's cell did not run, and why. */
  abandon(why: Abandoned): void;
  /** A check after it failed: the reader's change gives another result than the text. */
  noteCheckFailed(): void;
}

/** What runs for `target` (one of `session`, the cells of its session in page order):
 * the earlier cells that have not run, and the checks right after it. */
export function plan<C extends OrderedCell>(session: readonly C[], target: C): { before: C[]; checks: C[] } {
  const position = session.indexOf(target);
  const before = session.slice(0, position).filter((cell) => !cell.ran);
  const checks: C[] = [];
  for (const cell of session.slice(position + 1)) {
    if (!cell.check) break;
    checks.push(cell);
  }
  return { before, checks };
}

/** A check failed: the visible cell it checks (the one before it) says so, else `fallback`. */
function checkFailed<C extends OrderedCell>(check: C, session: readonly C[], fallback: C): void {
  const shown = session.slice(0, session.indexOf(check)).filter((cell) => !cell.hidden);
  (shown[shown.length - 1] ?? fallback).noteCheckFailed();
}

/** How the earlier cells went: all ran (`ok`), a restart cut them, or why they stopped. */
export type Prerequisites = { kind: "ok" } | { kind: "restarted" } | Abandoned;

/** Run `before` (queued already, quietly) in order: a failing cell or a cancel stops the
 * rest, a failing check only tells its visible cell (or `fallback`). */
async function runBefore<C extends OrderedCell>(before: readonly C[], session: readonly C[], fallback: C): Promise<Prerequisites> {
  for (const [index, cell] of before.entries()) {
    const verdict = await cell.execute();
    if (verdict === "restarted") return { kind: "restarted" };
    if (verdict === "cancelled" || (verdict === "error" && !cell.check)) {
      for (const rest of before.slice(index + 1)) rest.unqueue();
      return verdict === "cancelled" ? { kind: "cancelled" } : { kind: "failed-before", label: cell.label };
    }
    if (verdict === "error") checkFailed(cell, session, fallback);
  }
  return { kind: "ok" };
}

/** Run, quietly, the cells of `session` before position `index` (cells `0 … index - 1`)
 * that have not run: what something placed there needs, e.g. a prediction with `session`. */
export async function runCellsBefore<C extends OrderedCell>(session: readonly C[], index: number): Promise<Prerequisites> {
  const before = session.slice(0, index).filter((cell) => !cell.ran);
  const last = session[index - 1];
  if (before.length === 0 || last === undefined) return { kind: "ok" };
  for (const cell of before) cell.queue(true);
  return runBefore(before, session, last);
}

/** Run `target` in its `session`, after the earlier cells it needs, then its checks. */
export async function runInOrder<C extends OrderedCell>(session: readonly C[], target: C): Promise<void> {
  const { before, checks } = plan(session, target);
  for (const cell of before) cell.queue(true);
  target.queue(false);
  const done = await runBefore(before, session, target);
  if (done.kind === "restarted") return;
  if (done.kind !== "ok") {
    target.abandon(done);
    return;
  }
  if ((await target.execute()) !== "ok") return;
  for (const check of checks) {
    const verdict = await check.execute();
    if (verdict === "error") checkFailed(check, session, target);
    if (verdict !== "ok") return;
  }
}
