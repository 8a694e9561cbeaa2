// Unit tests of the front-end under Node.js: each frontend/test/*.test.ts is bundled
// with esbuild (as the site's code is) into a temporary folder and run by `node --test`.
// Browser globals come from fakes.ts. Run by tests/test_frontend_units.py.
import * as esbuild from "esbuild";
import { spawnSync } from "node:child_process";
import { mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

const here = fileURLToPath(new URL(".", import.meta.url));
const only = process.argv.slice(2);
const tests = readdirSync(here)
  .filter((name) => name.endsWith(".test.ts"))
  .filter((name) => only.length === 0 || only.some((part) => name.includes(part)));
const out = mkdtempSync(join(tmpdir(), "lk-frontend-units-"));
try {
  await esbuild.build({
    absWorkingDir: here,
    entryPoints: tests,
    outdir: out,
    outExtension: { ".js": ".mjs" },
    bundle: true,
    platform: "node",
    format: "esm",
    target: ["node20"],
    logLevel: "warning",
  });
  const files = tests.map((name) => join(out, name.replace(/\.ts$/, ".mjs")));
  const done = spawnSync(process.execPath, ["--test", ...files], { stdio: "inherit" });
  process.exitCode = done.status ?? 1;
} finally {
  rmSync(out, { recursive: true, force: true });
}
