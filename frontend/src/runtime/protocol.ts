/**
 * Messages between the page and the Python worker.
 *
 * The page asks the worker to run code in a named namespace; the worker streams
 * output while the code runs and ends with one `result` (or `failed`).
 */

/** What `lessonkit.kernel.CellResult.to_dict()` returns (see lessonkit/kernel.py). */
export interface CellResult {
  /** Output in the order written: [stream, text] with stream "stdout" | "stderr". */
  output: Array<[string, string]>;
  value: string | null;
  svg: string | null;
  error: string | null;
  error_type: string | null;
  truncated: boolean;
}

export interface RunRequest {
  session: string;
  code: string;
  label: string;
}

/** A call into `lessonkit.bridge.CALLS` (consoles and other page helpers). */
export interface CallRequest {
  name: string;
  args: Record<string, unknown>;
}

export type ToWorker =
  | ({ type: "run"; id: number } & RunRequest)
  | ({ type: "call"; id: number } & CallRequest)
  | { type: "reset" };

export type FromWorker =
  | { type: "ready"; seconds: number; stages: Record<string, number> }
  /** Python's start: bytes of the runtime files received so far, then "start". */
  | { type: "progress"; phase: "download" | "start"; loaded: number; total: number }
  | { type: "chunk"; id: number; stream: string; text: string }
  | { type: "result"; id: number; result: CellResult }
  | { type: "value"; id: number; value: unknown }
  | { type: "failed"; id: number | null; message: string }
  /** Python died under a run (os._exit, a stack overflow, …): the page starts a new worker. */
  | { type: "dead"; message: string };
