// Run cells in real Pyodide under Node.js, with the same kernel and packages
// the site ships. Input (stdin, JSON): {packages: "<zip path>", snapshot?: "<.lks.gz>", pages: [{name,
// cells: [{session, code, label}]}]}. Output (stdout, JSON): per page, the
// CellResult dicts in order. Each page starts with fresh namespaces.
import { readFileSync } from "node:fs";
import { gunzipSync } from "node:zlib";
import { loadPyodide } from "pyodide";
import { installPackages } from "../../lessonkit/node/packages.mjs";
import { unpackPages } from "../../lessonkit/node/snapshot_format.mjs";

const job = JSON.parse(readFileSync(0, "utf8"));
// With job.snapshot (a .lks.gz from lessonkit/node/make_snapshot.mjs), start as the site does.
const pyodide = job.snapshot
  ? await loadPyodide({ _loadSnapshot: unpackPages(gunzipSync(readFileSync(job.snapshot))) })
  : await loadPyodide();
installPackages(pyodide, new Uint8Array(readFileSync(job.packages)));
const kernel = pyodide.runPython("from lessonkit.kernel import Kernel\nKernel()");

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
process.stdout.write(JSON.stringify({ python: pyodide.runPython("import sys; sys.version"), pages }));
