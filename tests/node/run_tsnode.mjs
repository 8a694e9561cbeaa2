// The TypeScript node runtime through Pyodide's JavaScript bridge, under Node.js: the
// transport the browser's Python worker uses, exercised without a browser
// (tests/tsnode/test_runtime_pyodide.py).
//
// Usage: node run_tsnode.mjs <packages.zip> <script.py>
// Registers the runtime's text handler (.cache/tsnode/node-bridge.mjs, built by
// `node frontend/build.mjs --tsnode`) as the JavaScript module `lessonkit_tsnode`, runs the
// script with the site's packages on sys.path and prints the value of its last expression.
import { readFileSync } from "node:fs";
import { loadPyodide } from "pyodide";
import { installPackages } from "../../lessonkit/node/packages.mjs";
import { handle } from "../../.cache/tsnode/node-bridge.mjs";

const [packagesPath, scriptPath] = process.argv.slice(2);
const pyodide = await loadPyodide();
installPackages(pyodide, new Uint8Array(readFileSync(packagesPath)));
pyodide.registerJsModule("lessonkit_tsnode", { handle });
process.stdout.write(String(pyodide.runPython(readFileSync(scriptPath, "utf8"))) + "\n");
