// Run cells in real Pyodide under Node.js, with the same kernel and packages the
// site ships: one process for a whole test session (tests/pyodide.py).
//
// Usage: node run_cells.mjs <packages.zip> <snapshot.lks.zst> <bytecode-stdlib.zip.zst>
//   <bytecode-packages.zip.zst>
// Stdin: one job per line, {start: "plain" | "snapshot" | "bytecode", pages: [{name,
// cells: [{session, code, label}]}]}. Stdout: one line per job, {python, pages: [{name,
// results}]} with the CellResult dicts in order, or {error} when the job itself failed.
// Each page starts with fresh namespaces. Each start (a plain one, and the two the
// site's worker chooses from, made as it makes them) is a Pyodide of its own, made on
// its first job.
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { createInterface } from "node:readline";
import { loadPyodide } from "pyodide";
import { ZSTDDecoder } from "zstddec";
import { installPackages } from "../../lessonkit/node/packages.mjs";
import { restoring, unpackPages } from "../../lessonkit/node/snapshot_format.mjs";

const [packagesPath, snapshotPath, bytecodeStdlib, bytecodePackages] = process.argv.slice(2);
const packages = new Uint8Array(readFileSync(packagesPath));
const fullStdlib = join(dirname(snapshotPath), "pyodide", "python_stdlib.zip");
const started = new Map();

function kernelFor(how) {
  if (!started.has(how)) started.set(how, start(how));
  return started.get(how);
}

async function inflated(path) {
  const decoder = new ZSTDDecoder();
  await decoder.init();
  return decoder.decode(new Uint8Array(readFileSync(path)));
}

/** Pyodide from the site's bytecode files, as the browser's worker starts it. */
async function fromBytecode() {
  const lean = join(mkdtempSync(join(tmpdir(), "lk-bytecode-")), "python_stdlib_lean.zip");
  writeFileSync(lean, await inflated(bytecodeStdlib));
  const pyodide = await loadPyodide({ stdLibURL: lean });
  installPackages(pyodide, await inflated(bytecodePackages));
  pyodide.runPython("import lessonkit.runtime.stdlib, _lessonkit_stdlib_names\nlessonkit.runtime.stdlib.install(_lessonkit_stdlib_names.NAMES)");
  pyodide.pyimport("lessonkit.runtime.stdlib").set_fetch(() => new Uint8Array(readFileSync(fullStdlib)));
  // Imported from bytecode: make sure it was (a source import would pass unseen).
  if (pyodide.runPython("import json, pysim; json.__file__.endswith('.pyc') and pysim.__file__.endswith('.pyc')") !== true)
    throw new Error("not from bytecode");
  return pyodide;
}

/** Pyodide from the site's snapshot, restored as the browser's worker does. */
async function fromSnapshot() {
  const packed = await inflated(snapshotPath);
  const restore = restoring(Promise.resolve(unpackPages(packed)));
  try {
    // As the browser's worker: an empty standard library, the full one on demand.
    const stdLibURL = join(dirname(snapshotPath), "pyodide", "python_stdlib_empty.zip");
    const pyodide = await loadPyodide({ _loadSnapshot: restore.snapshot, stdLibURL });
    pyodide.pyimport("lessonkit.runtime.stdlib").set_fetch(() => new Uint8Array(readFileSync(fullStdlib)));
    // A snapshot Pyodide refused would have thrown; make sure it was this one.
    if (pyodide.runPython("import sys; 'pysim' in sys.modules") !== true) throw new Error("not restored");
    return pyodide;
  } finally {
    restore.undo();
  }
}

async function start(how) {
  const pyodide = how === "bytecode" ? await fromBytecode() : how === "snapshot" ? await fromSnapshot() : await loadPyodide();
  if (how !== "bytecode") installPackages(pyodide, packages);
  const kernel = pyodide.runPython("from lessonkit.runtime.kernel import Kernel\nKernel()");
  return { kernel, python: pyodide.runPython("import sys; sys.version") };
}

async function run(job) {
  const { kernel, python } = await kernelFor(job.start ?? "plain");
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
