// Run TypeScript snippets with Node.js for the `ts-run` fence (lessonkit/build/typescript.py).
// Input (stdin, JSON): {"snippets": ["<ts code>", ...], "timeout": seconds}.
// Output (stdout, JSON): [{output, error, line, timeout}, ...]: what console.* printed
// (formatted as Node prints it), the error ("Name: message") and its line in the snippet.
//
// Each snippet is stripped of its types by esbuild (with a source map, so errors name the
// snippet's own line) and runs as an ES module in a Node.js process of its own, until
// Node's event loop is empty: late timers print under their own block, and a snippet
// that never ends is stopped after `timeout` seconds. The processes run side by side, one
// per core (each snippet alone in its process: its output does not depend on the others).
import { spawn } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { availableParallelism, tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { transformSync } from "esbuild";

const { snippets, timeout } = JSON.parse(readFileSync(0, "utf8"));
const prelude = fileURLToPath(new URL("./ts_prelude.mjs", import.meta.url));
const MARK = "@@lessonkit-error@@";
const dir = mkdtempSync(join(tmpdir(), "lessonkit-ts-"));
// A snippet may import the project's pinned npm packages (`import * as Y from "yjs"`):
// Node resolves a bare import from the importing file's folder upwards.
symlinkSync(fileURLToPath(new URL("../../node_modules", import.meta.url)), join(dir, "node_modules"), "dir");

/** The snippet's line of an error, from the first stack frame in the snippet. */
function lineOf(stack, index) {
  const match = new RegExp(`ts-run-${index}\\.ts:(\\d+):\\d+`).exec(stack);
  return match ? Number(match[1]) : null;
}

/** Run a Node.js process to its end: {stdout, stderr, status, timedOut}. */
function node(args, seconds) {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, args, { cwd: process.cwd() });
    const out = [];
    const err = [];
    child.stdout.on("data", (chunk) => out.push(chunk));
    child.stderr.on("data", (chunk) => err.push(chunk));
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      child.kill("SIGKILL");
    }, seconds * 1000);
    child.on("close", (status) => {
      clearTimeout(timer);
      const text = (chunks) => Buffer.concat(chunks).toString("utf8");
      resolve({ stdout: text(out), stderr: text(err), status, timedOut });
    });
  });
}

async function run(code, index) {
  let js;
  try {
    js = transformSync(code, {
      loader: "ts",
      format: "esm",
      target: "es2022",
      sourcemap: "inline",
      sourcefile: `ts-run-${index}.ts`,
    }).code;
  } catch (exc) {
    const first = exc.errors?.[0];
    return {
      output: "",
      error: `SyntaxError: ${first?.text ?? String(exc)}`,
      line: first?.location?.line ?? null,
      timeout: false,
    };
  }
  const file = join(dir, `ts-run-${index}.mjs`);
  writeFileSync(file, js);
  const done = await node(["--enable-source-maps", "--no-warnings", "--import", prelude, file], timeout);
  const output = done.stdout;
  if (done.timedOut) {
    return { output, error: null, line: null, timeout: true };
  }
  const stderr = done.stderr;
  const marked = stderr.lastIndexOf(MARK);
  if (marked >= 0) {
    const { error, stack } = JSON.parse(stderr.slice(marked + MARK.length).split("\n")[0]);
    return { output, error, line: lineOf(stack, index), timeout: false };
  }
  if (done.status === 13) {
    const error =
      "Das `await` auf oberster Ebene wartet auf ein Promise, das nie erfüllt wird " +
      "(Node.js beendet sich mit leerer Ereignisschleife).";
    return { output, error, line: null, timeout: false };
  }
  if (done.status !== 0) {
    return { output, error: `Node.js endet mit Code ${done.status}:\n${stderr}`, line: null, timeout: false };
  }
  return { output, error: null, line: null, timeout: false };
}

/** Every snippet's result, in order, with at most one process per core at a time. */
async function runAll() {
  const results = new Array(snippets.length);
  let next = 0;
  const lanes = Array.from({ length: Math.min(availableParallelism(), snippets.length) }, async () => {
    while (next < snippets.length) {
      const index = next++;
      results[index] = await run(snippets[index], index);
    }
  });
  await Promise.all(lanes);
  return results;
}

try {
  process.stdout.write(JSON.stringify(await runAll()));
} finally {
  rmSync(dir, { recursive: true, force: true });
}
