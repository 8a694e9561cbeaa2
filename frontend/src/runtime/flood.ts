/**
 * A flood of messages from the Python worker: the reader's code can post messages itself
 * (`js.postMessage` in a loop). Each costs the page little, but two million of them kept
 * its main thread busy for seconds: timers starved, typing lagged. The worker's own
 * protocol sends few (the kernel batches output, lessonkit/runtime/kernel.py `on_parts`; one
 * answer per request), so far more than it ever sends means reader code is flooding the
 * page, and the page ends that worker (`PythonRuntime`, restart reason "flut").
 */

/** Messages within one window that count as a flood: the protocol sends a few dozen a
 * second (output every 50 ms per run, one answer per request, the start's progress). */
export const FLOOD_MESSAGES = 5_000;
export const FLOOD_WINDOW_MS = 1_000;

/** Counts messages per window of `windowMs`; says when one window held more than `limit`. */
export class FloodGuard {
  private windowStart = -Infinity;
  private count = 0;

  constructor(
    private readonly limit = FLOOD_MESSAGES,
    private readonly windowMs = FLOOD_WINDOW_MS,
  ) {}

  /** A message arrived at `now` (ms); true when it is one too many. */
  arrived(now: number): boolean {
    if (now - this.windowStart >= this.windowMs) {
      this.windowStart = now;
      this.count = 0;
    }
    this.count += 1;
    return this.count > this.limit;
  }
}
