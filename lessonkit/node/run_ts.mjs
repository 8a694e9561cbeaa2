// Run TypeScript snippets with Node.js for the `ts-run` fence (lessonkit/typescript.py).
// Input (stdin, JSON): ["<ts code>", ...]. Output (stdout, JSON): [{output, error}, ...],
// where output is what console.log / console.error printed, formatted as Node prints it.
// Each snippet is stripped of its types by esbuild and runs as its own ES module.
import { readFileSync } from "node:fs";
import { format } from "node:util";
import { transformSync } from "esbuild";

const snippets = JSON.parse(readFileSync(0, "utf8"));
const results = [];
const original = { log: console.log, error: console.error, warn: console.warn, info: console.info };

for (const [index, code] of snippets.entries()) {
  const lines = [];
  const capture = (...args) => lines.push(format(...args));
  Object.assign(console, { log: capture, info: capture, warn: capture, error: capture });
  let error = null;
  try {
    const { code: js } = transformSync(code, { loader: "ts", format: "esm", target: "es2022" });
    const url = `data:text/javascript;base64,${Buffer.from(`${js}\n//# snippet ${index}`).toString("base64")}`;
    await import(url);
    // Let timers and promises of the snippet finish (setTimeout(…, 0), microtasks).
    await new Promise((resolve) => setTimeout(resolve, 50));
  } catch (exc) {
    error = exc instanceof Error ? `${exc.name}: ${exc.message}` : String(exc);
  } finally {
    Object.assign(console, original);
  }
  results.push({ output: lines.length ? `${lines.join("\n")}\n` : "", error });
}
process.stdout.write(JSON.stringify(results));
