/**
 * Messages between the page and the Python worker.
 *
 * The page asks the worker to run code in a named namespace; the worker streams
 * output while the code runs and ends with one `result` (or `failed`).
 */

import type { CallName, Calls, CellResultData } from "../generated/contract";

/** What `lessonkit.runtime.kernel.CellResult.to_dict()` returns (declared in lessonkit/build/contract.py). */
export type CellResult = CellResultData;

export interface RunRequest {
  session: string;
  code: string;
  label: string;
}

/** A call into `lessonkit.runtime.bridge.CALLS`, typed by its name (lessonkit/build/contract.py). */
export type CallRequest = { [N in CallName]: { name: N; args: Calls[N]["args"] } }[CallName];

export type ToWorker =
  | ({ type: "run"; id: number } & RunRequest)
  | ({ type: "call"; id: number } & CallRequest)
  | { type: "reset" };

export type FromWorker =
  | { type: "ready"; seconds: number; stages: Record<string, number> }
  /** Python's start: bytes of the runtime files received so far, then "start". */
  | { type: "progress"; phase: "download" | "start"; loaded: number; total: number }
  | { type: "chunk"; id: number; stream: string; text: string }
  /** One batch of a run's output, its stretches of stdout and stderr in order (the kernel's
   * `on_parts`): one message however often the output switches streams. */
  | { type: "chunks"; id: number; parts: [string, string][] }
  | { type: "result"; id: number; result: CellResult }
  | { type: "value"; id: number; value: unknown }
  | { type: "failed"; id: number | null; message: string }
  /** Python died under a run (os._exit, a stack overflow, …): the page starts a new worker. */
  | { type: "dead"; message: string }
  /** The reader's code called `close()` (worker/sandbox.ts): the page starts a new worker. */
  | { type: "closed" }
  /** Python's memory is used up (the reader's code keeps it): the page starts a new worker. */
  | { type: "exhausted" };
