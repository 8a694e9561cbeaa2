/**
 * Python's worker, made so that the page's own Content-Security-Policy governs it.
 *
 * A worker created from a script's address takes its policy from that script's response.
 * A static host (GitHub Pages) sends none, and the service worker can add one only once it
 * controls the page, never on a first visit: Python's worker then had no policy, and code a
 * reader pasted reached any other origin (issue 49). A worker created from a `blob:` URL
 * inherits the policy of the document that made it, its `<meta http-equiv>` policy
 * included (`connect-src 'self'`, scripts of this origin only, no `'unsafe-eval'`), from
 * the first visit on. So the worker is a one-line module that imports the real worker
 * script by its absolute address (which stays its `import.meta.url`, from which it finds
 * its files); the page's policy allows `blob:` workers for this (`worker-src`).
 * `overrides/main.html` makes the early worker the same way.
 */

/** The blob worker's whole source: import the real script (an absolute address). */
export function workerSource(script: URL): string {
  return `import ${JSON.stringify(script.href)};\n`;
}

/** One blob per script address for the page's whole visit (restarts reuse it). */
const blobs = new Map<string, string>();

/** A module worker running `script` under the page's own policy (see above). */
export function pythonWorker(script: URL): Worker {
  let blob = blobs.get(script.href);
  if (!blob) {
    blob = URL.createObjectURL(new Blob([workerSource(script)], { type: "text/javascript" }));
    blobs.set(script.href, blob);
  }
  return new Worker(blob, { type: "module", name: "python" });
}
