// Bundle the front-end with esbuild into docs/assets/generated/js/.
// Three entry points: the page script (ES module, code-split so the editor loads
// only when a page has cells), the Pyodide worker (a module worker) and the
// worker that inflates the memory snapshot beside it.
// Files are written only when their content changed, so `mkdocs serve`, which
// watches docs/, does not rebuild in a loop.
import * as esbuild from "esbuild";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname } from "node:path";
import { fileURLToPath } from "node:url";

const root = fileURLToPath(new URL("..", import.meta.url));

const result = await esbuild.build({
  absWorkingDir: root,
  entryPoints: {
    lessonkit: "frontend/src/index.ts",
    worker: "frontend/src/worker/python-worker.ts",
    inflate: "frontend/src/worker/inflate-worker.ts",
  },
  outdir: "docs/assets/generated/js",
  bundle: true,
  splitting: true,
  format: "esm",
  target: ["es2022"],
  minify: true,
  sourcemap: true,
  chunkNames: "chunks/[name]-[hash]",
  legalComments: "linked",
  logLevel: "warning",
  write: false,
});

for (const file of result.outputFiles) {
  let old = null;
  try {
    old = readFileSync(file.path);
  } catch {
    // a new file
  }
  if (old === null || !old.equals(Buffer.from(file.contents))) {
    mkdirSync(dirname(file.path), { recursive: true });
    writeFileSync(file.path, file.contents);
  }
}
