/**
 * Which start a reader's Python takes (issue 53; ARCHITECTURE.md, "Which start"):
 * from the memory snapshot (little processor, 5.4 MB) or from bytecode (1.9 MB, about a
 * second more processor), chosen by how fast the WebAssembly, which both need first,
 * came over the line.
 */

/** What runtime.json says of the starts (python-worker.ts has the whole of it). */
export interface Choices {
  snapshot: string | null;
  bytecode?: unknown;
  start?: "auto" | "snapshot" | "bytecode";
}

/**
 * Below this many bytes per second (the WebAssembly's download) the start from bytecode
 * is the faster one: it sends 3.2 MB less than the snapshot's and costs about a second
 * more of processor on this project's test machine (benchmarks/README.md, issue 53).
 */
export const SLOW_LINE_BYTES_PER_SECOND = 3_000_000;

/**
 * Which start this reader's Python takes (ARCHITECTURE.md, "Which start"). The build may
 * fix it (`start` in runtime.json, for benchmarks); "auto" waits for the WebAssembly's
 * download (both starts need it first) and takes the bytecode on a slow line, the
 * snapshot on a fast one and whenever the download was stopped (a returning reader's kept
 * copy found first: then the processor is all a start costs). Nothing else is requested
 * meanwhile, so the line carries the WebAssembly alone and its speed is the line's.
 */
export async function chooseStart(
  runtime: Choices,
  wasmRate: Promise<number | null>,
): Promise<"snapshot" | "bytecode" | "plain"> {
  const fixed = runtime.start ?? "auto";
  if (fixed === "bytecode" && runtime.bytecode) return "bytecode";
  if (fixed === "snapshot" && runtime.snapshot) return "snapshot";
  if (fixed === "auto" && runtime.bytecode && runtime.snapshot) {
    const rate = await wasmRate;
    return rate !== null && rate < SLOW_LINE_BYTES_PER_SECOND ? "bytecode" : "snapshot";
  }
  return runtime.snapshot ? "snapshot" : runtime.bytecode ? "bytecode" : "plain";
}

