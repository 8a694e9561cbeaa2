// Runs tests/pysim/szenario.py in Pyodide under Node.js and prints its output unchanged.
// Usage: node tests/pysim/pyodide_lauf.mjs <repository root>
import fs from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";

const wurzel = path.resolve(process.argv[2] ?? ".");
const { loadPyodide } = await import(
  pathToFileURL(path.join(wurzel, "node_modules", "pyodide", "pyodide.mjs")).href
);
const py = await loadPyodide();
py.FS.mkdirTree("/home/pyodide/pysim");
for (const datei of fs.readdirSync(path.join(wurzel, "pysim")).sort()) {
  if (datei.endsWith(".py")) {
    py.FS.writeFile(`/home/pyodide/pysim/${datei}`, fs.readFileSync(path.join(wurzel, "pysim", datei)));
  }
}
py.FS.writeFile(
  "/home/pyodide/szenario.py",
  fs.readFileSync(path.join(wurzel, "tests", "pysim", "szenario.py")),
);
const ausgabe = py.runPython(`
import io, runpy, sys
sys.path.insert(0, "/home/pyodide")
_puffer = io.StringIO()
_alt = sys.stdout
sys.stdout = _puffer
try:
    runpy.run_path("/home/pyodide/szenario.py", run_name="__main__")
finally:
    sys.stdout = _alt
_puffer.getvalue()
`);
process.stdout.write(ausgabe);
