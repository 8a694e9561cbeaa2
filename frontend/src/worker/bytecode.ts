/**
 * The start from bytecode (issue 53): Python boots as Pyodide does without a snapshot,
 * but from the modules the course needs compiled to `.pyc` (lessonkit/node/make_bytecode.mjs)
 * instead of the whole standard library's sources: 1.9 MB (Zstandard) where the snapshot
 * and the packages zip are 5.4 MB, for a few hundred milliseconds more processor. On a
 * slow line that is the faster start (benchmarks/README.md; python-worker.ts chooses).
 *
 * Both files are Zstandard-compressed stored zips; they download as soon as this is
 * called, the library first. Pyodide asks for its standard library with the worker's `fetch` (`stdLibURL`):
 * that one request is answered with the inflated lean library, every other passes on.
 */
import { NEARLY_THERE } from "./wasm";
import { fetchInflated } from "./zstd";

type Scope = { fetch: typeof fetch };

/** The files of the bytecode start, named in runtime.json (in the assets folder). */
export interface BytecodeFiles {
  /** The standard library's modules the course imports, as .pyc (a stored zip, .zst). */
  stdlib: string;
  /** The packages zip's modules as .pyc (a stored zip, .zst). */
  packages: string;
}

/** The address Pyodide is given as `stdLibURL`; never requested from the server. */
export const LEAN_STDLIB = "python_stdlib_lean.zip";

/**
 * Start both downloads; answer `scope`'s request for `stdlibAt` with the lean library.
 * Returns the inflated packages zip (for installPackages) and the lean library.
 */
export function fetchBytecode(
  scope: Scope,
  stdlibAt: URL,
  files: { stdlib: URL; packages: URL },
): { stdlib: Promise<Uint8Array>; packages: Promise<Uint8Array> } {
  const original = scope.fetch.bind(scope);
  // One after the other: on a slow line Python boots from the library while the
  // packages (needed only after the boot) still come, instead of both arriving last.
  // The packages are asked for as the library's last bytes come (NEARLY_THERE).
  let next: () => void = () => undefined;
  const libraryNearlyThere = new Promise<void>((resolve) => (next = resolve));
  const stdlib = fetchInflated(
    files.stdlib,
    (loaded, total, done) => {
      if (done || (total && loaded >= total - NEARLY_THERE)) next();
    },
    original,
  );
  stdlib.catch(next);
  const packages = libraryNearlyThere.then(() => fetchInflated(files.packages, undefined, original));
  stdlib.catch(() => undefined); // reported where they are awaited
  packages.catch(() => undefined);
  scope.fetch = async (input: RequestInfo | URL, init?: RequestInit): Promise<Response> => {
    const url = input instanceof Request ? input.url : String(input);
    if (new URL(url, stdlibAt).href !== stdlibAt.href) return original(input, init);
    return new Response(await stdlib, { headers: { "Content-Type": "application/zip" } });
  };
  return { stdlib, packages };
}
