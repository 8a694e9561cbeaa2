// Run cells in real Pyodide under Node.js, with the same kernel and packages the
// site ships: one process for a whole test session (tests/pyodide.py).
//
// Usage: node run_cells.mjs <packages.zip> <snapshot.lks.zst>
// Stdin: one job per line, {snapshot: bool, pages: [{name, cells: [{session, code,
// label}]}]}. Stdout: one line per job, {python, pages: [{name, results}]} with the
// CellResult dicts in order, or {error} when the job itself failed.
// Each page starts with fresh namespaces. A plain start and a start from the memory
// snapshot (as the site does) are two Pyodides, each made on its first job.
import { readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { createInterface } from "node:readline";
import { loadPyodide } from "pyodide";
import { ZSTDDecoder } from "zstddec";
import { installPackages } from "../../lessonkit/node/packages.mjs";
import { restoring, unpackPages } from "../../lessonkit/node/snapshot_format.mjs";

const [packagesPath, snapshotPath] = process.argv.slice(2);
const packages = new Uint8Array(readFileSync(packagesPath));
const started = new Map();

function kernelFor(snapshot) {
  if (!started.has(snapshot)) started.set(snapshot, start(snapshot));
  return started.get(snapshot);
}

/** Pyodide from the site's snapshot, restored as the browser's worker does. */
async function fromSnapshot() {
  const decoder = new ZSTDDecoder();
  await decoder.init();
  const packed = decoder.decode(new Uint8Array(readFileSync(snapshotPath)));
  const restore = restoring(Promise.resolve(unpackPages(packed)));
  try {
    // As the browser's worker: an empty standard library, the full one on demand.
    const stdLibURL = join(dirname(snapshotPath), "pyodide", "python_stdlib_empty.zip");
    const pyodide = await loadPyodide({ _loadSnapshot: restore.snapshot, stdLibURL });
    const full = join(dirname(snapshotPath), "pyodide", "python_stdlib.zip");
    pyodide.pyimport("lessonkit.runtime.stdlib").set_fetch(() => new Uint8Array(readFileSync(full)));
    // A snapshot Pyodide refused would have thrown; make sure it was this one.
    if (pyodide.runPython("import sys; 'pysim' in sys.modules") !== true) throw new Error("not restored");
    return pyodide;
  } finally {
    restore.undo();
  }
}

async function start(snapshot) {
  const pyodide = snapshot ? await fromSnapshot() : await loadPyodide();
  installPackages(pyodide, packages);
  const kernel = pyodide.runPython("from lessonkit.runtime.kernel import Kernel\nKernel()");
  return { kernel, python: pyodide.runPython("import sys; sys.version") };
}

async function run(job) {
  const { kernel, python } = await kernelFor(Boolean(job.snapshot));
  const pages = [];
  for (const page of job.pages) {
    kernel.reset();
    const results = [];
    for (const cell of page.cells) {
      const result = await kernel.run(cell.session, cell.code, cell.label);
      results.push(JSON.parse(result.to_json()));
      result.destroy();
    }
    pages.push({ name: page.name, results });
  }
  return { python, pages };
}

// Jobs run one after another: the Python side is one interpreter per start.
for await (const line of createInterface({ input: process.stdin, crlfDelay: Infinity })) {
  let answer;
  try {
    answer = await run(JSON.parse(line));
  } catch (error) {
    answer = { error: String(error && error.stack ? error.stack : error) };
  }
  process.stdout.write(JSON.stringify(answer) + "\n");
}
