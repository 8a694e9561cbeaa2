// Bundle the front-end with esbuild into docs/assets/generated/js/.
// Two entry points: the page script (ES module, code-split so the editor loads
// only when a page has cells) and the Pyodide worker (a module worker).
// Files are written only when their content changed, so `mkdocs serve`, which
// watches docs/, does not rebuild in a loop.
// Then the service worker (frontend/src/sw/) into docs/sw.js, the site's root, with
// the deployment's version and the runtime files to precache baked in.
import * as esbuild from "esbuild";
import { createHash } from "node:crypto";
import { existsSync, mkdirSync, readdirSync, readFileSync, unlinkSync, writeFileSync } from "node:fs";
import { dirname, join, relative } from "node:path";
import { createRequire } from "node:module";
import { fileURLToPath } from "node:url";

const root = fileURLToPath(new URL("..", import.meta.url));
const requireHere = createRequire(import.meta.url);
const docs = join(root, "docs");
const generated = join(docs, "assets/generated");

// The deployment's version is baked into the page script and the Python worker, so each
// can tell whether it belongs to the page that loaded it (the page's
// `<meta name="lessonkit-version">`, lessonkit/build/csp.py). The version hashes the bundles
// themselves, so they are built with a placeholder of the version's length (source maps
// stay right), the version is computed over that output, then written over the placeholder.
/** `import text from "./file?raw"`: the file's text (the reader's declarations, reader/knoten.d.ts). */
const rawPlugin = {
  name: "raw",
  setup(build) {
    build.onResolve({ filter: /\?raw$/ }, (args) => {
      const path = args.path.slice(0, -"?raw".length);
      // a relative path from the importing file, a package's file through node_modules
      return { path: path.startsWith(".") ? join(args.resolveDir, path) : requireHere.resolve(path), namespace: "raw" };
    });
    build.onLoad({ filter: /.*/, namespace: "raw" }, (args) => ({
      contents: readFileSync(args.path, "utf8"),
      loader: "text",
    }));
  },
};

/** A lib file without its documentation: the block comments (JSDoc, the licence) and whole
 * lines of `//` comments go, the `/// <reference lib>` lines stay. The check needs only the
 * declarations; the comments were two thirds of the bytes and named other sites' addresses. */
function withoutComments(text) {
  return text
    .replace(/\/\*[\s\S]*?\*\//g, "")
    .replace(/^[ \t]*\/\/(?!\/).*$/gm, "")
    .replace(/\n[ \t]*(?=\n)/g, "");
}

/** `import libs from "tsnode-libs"`: TypeScript's lib files a reader's node is checked against
 * (`lib.es2022.d.ts` and every file it references), name -> text, for the browser's check. */
const tsLibsPlugin = {
  name: "tsnode-libs",
  setup(build) {
    build.onResolve({ filter: /^tsnode-libs$/ }, () => ({ path: "tsnode-libs", namespace: "tsnode-libs" }));
    build.onLoad({ filter: /.*/, namespace: "tsnode-libs" }, () => {
      const dir = dirname(requireHere.resolve("typescript-js/lib/lib.es2022.d.ts"));
      const libs = {};
      const todo = ["lib.es2022.d.ts"];
      while (todo.length > 0) {
        const name = todo.pop();
        if (name in libs) continue;
        libs[name] = withoutComments(readFileSync(join(dir, name), "utf8"));
        for (const [, ref] of libs[name].matchAll(/\/\/\/ <reference lib="([^"]+)"/g)) todo.push(`lib.${ref}.d.ts`);
      }
      return { contents: `export default ${JSON.stringify(libs)};`, loader: "js" };
    });
  },
};

/** The TypeScript node runtime for Node.js (pysim/cluster/ts_knoten.py's `NodeGegenstelle`):
 * not served, so it goes to .cache; typescript-js stays in node_modules. */
async function buildTsNodeServer() {
  await esbuild.build({
    absWorkingDir: root,
    entryPoints: {
      server: "frontend/src/tsnode/server.ts",
      "node-bridge": "frontend/src/tsnode/node-bridge.ts",
    },
    outdir: ".cache/tsnode",
    outExtension: { ".js": ".mjs" },
    bundle: true,
    platform: "node",
    format: "esm",
    target: ["node20"],
    external: ["typescript-js"],
    plugins: [rawPlugin],
    logLevel: "warning",
  });
}
if (process.argv.includes("--tsnode")) {
  await buildTsNodeServer();
  process.exit(0);
}
await buildTsNodeServer();

const VERSION_PLACEHOLDER = "lk0version0here0";
// runtime.json is baked into the Python worker as well (it fetched it with `no-cache`
// before): the names of the runtime files come with the worker of one deployment, never
// with another deployment's runtime.json. The file stays for the tools that read it. As a
// string: esbuild would put an object into a shared chunk, a string stays in worker.js.
const runtimeJson = join(generated, "runtime.json");
const runtime = existsSync(runtimeJson) ? JSON.parse(readFileSync(runtimeJson, "utf8")) : null;

const result = await esbuild.build({
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
  plugins: [rawPlugin, tsLibsPlugin],
  legalComments: "linked",
  logLevel: "warning",
  define: { LESSONKIT_BUILD: JSON.stringify(VERSION_PLACEHOLDER), LESSONKIT_RUNTIME: JSON.stringify(runtime ? JSON.stringify(runtime) : "") },
  write: false,
});

function writeChanged(outputFiles) {
  for (const file of outputFiles) {
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
}

// Chunks of earlier builds (their names carry content hashes) would otherwise pile up
// in the output and be deployed with the site: remove what this build did not make.
const outdir = join(root, "docs/assets/generated/js");
const made = new Set(result.outputFiles.map((file) => file.path));
for (const path of filesUnder(outdir)) if (!made.has(path)) unlinkSync(path);

// --- The service worker -------------------------------------------------------------
// Its version is a hash of every file under assets/generated/ (what it serves cache-first;
// source maps are left to the network), so a deployment that changes any of them changes
// sw.js and browsers install it anew. The bundle's new files count as they will be written.
// Its precache list is the runtime shell: this build's scripts, runtime.json and what it
// names, Pyodide's files, mermaid (loaded only when a diagram comes into view). Paths are
// relative to the site root (docs/).
function filesUnder(dir) {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory() ? filesUnder(join(dir, entry.name)) : [join(dir, entry.name)],
  );
}

const OFFLINE_JSON = "assets/generated/offline.json";
const siteRelative = (path) => relative(docs, path).split("\\").join("/");
const precache = result.outputFiles.map((file) => file.path).filter((path) => path.endsWith(".js"));
if (existsSync(join(generated, "mermaid.min.js"))) precache.push(join(generated, "mermaid.min.js"));
if (runtime) {
  precache.push(runtimeJson, join(generated, runtime.packages));
  if (runtime.snapshot) precache.push(join(generated, runtime.snapshot));
  // With its Zstandard copy (worker/wasm.ts), the plain WebAssembly is only a fallback.
  const plainWasm = runtime.compressedWasm ? join(generated, runtime.pyodide, "pyodide.asm.wasm") : null;
  precache.push(...filesUnder(join(generated, runtime.pyodide)).filter((path) => path !== plainWasm));
}
const contents = new Map(filesUnder(generated).map((path) => [siteRelative(path), null]));
for (const file of result.outputFiles) contents.set(siteRelative(file.path), file.contents);
contents.delete(OFFLINE_JSON);
const read = (path) => contents.get(path) ?? readFileSync(join(docs, path));
const version = createHash("sha256");
for (const path of [...contents.keys()].sort()) {
  if (!path.endsWith(".map")) version.update(`${path}\0`).update(read(path));
}
// The course's stylesheet belongs to the runtime too: the page script reads the version
// lessonkit/build/csp.py stamps into it, and a new stylesheet is a new deployment of the shell.
const stylesheet = join(docs, "assets/lessonkit.css");
if (existsSync(stylesheet)) version.update("assets/lessonkit.css\0").update(readFileSync(stylesheet));
const versionHex = version.digest("hex").slice(0, 16);
// Now the real version over the placeholder, in every file of this build that has it.
const outputs = result.outputFiles.map(({ path, contents: bytes }) => {
  const text = Buffer.from(bytes).toString("latin1"); // one character per byte
  if (!text.includes(VERSION_PLACEHOLDER)) return { path, contents: bytes };
  // A chunk's name is its content's hash, made before this: it must not carry the version.
  if (path.includes(`${join("js", "chunks")}`)) throw new Error(`${path}: the deployment's version in a shared chunk`);
  const stamped = new Uint8Array(Buffer.from(text.split(VERSION_PLACEHOLDER).join(versionHex), "latin1"));
  contents.set(siteRelative(path), stamped);
  return { path, contents: stamped };
});
// The precache manifest: path -> SHA-256 of the bytes this build made. The service
// worker serves a cached file only when it still has these bytes (anything on the
// origin can write into the Cache API).
// `lazy`: shell files not fetched on install, only kept once a page asks for them: the
// TypeScript node runtime's chunk (TypeScript's compiler, 1 MB gzip), which only a reader
// who picks TypeScript needs.
const offline = {
  version: versionHex,
  precache: Object.fromEntries(
    precache
      .map(siteRelative)
      .sort()
      .map((path) => [path, createHash("sha256").update(read(path)).digest("hex")]),
  ),
  lazy: precache.map(siteRelative).filter((path) => /\/chunks\/tsnode-(worker|check)-[^/]*\.js$/.test(path)).sort(),
};
// For the build's last step (lessonkit/build/csp.py), which stamps every page with the
// version it belongs to; not part of the version itself, and never requested by pages.
const offlineJson = { path: join(docs, OFFLINE_JSON), contents: Buffer.from(JSON.stringify(offline) + "\n") };

const serviceWorker = await esbuild.build({
  absWorkingDir: root,
  entryPoints: ["frontend/src/sw/service-worker.ts"],
  outfile: "docs/sw.js",
  bundle: true,
  format: "iife",
  target: ["es2022"],
  minify: true,
  define: { OFFLINE: JSON.stringify(offline) },
  logLevel: "warning",
  write: false,
});
// Written together, so that `mkdocs serve` sees one change, not two.
writeChanged([...outputs, ...serviceWorker.outputFiles, offlineJson]);
