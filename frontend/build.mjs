// Bundle the front-end with esbuild into docs/assets/generated/js/.
// Two entry points: the page script (ES module, code-split so the editor loads
// only when a page has cells) and the Pyodide worker (a module worker).
import * as esbuild from "esbuild";
import { fileURLToPath } from "node:url";

const root = fileURLToPath(new URL("..", import.meta.url));

await esbuild.build({
  absWorkingDir: root,
  entryPoints: {
    lessonkit: "frontend/src/index.ts",
    worker: "frontend/src/worker/python-worker.ts",
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
});
