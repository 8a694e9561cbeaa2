// Make a Pyodide memory snapshot with pysim and lessonkit already imported, so the
// reader's worker starts Python in a fraction of the time (lessonkit/assets.py).
// Usage: node make_snapshot.mjs <packages.zip> <output.lks.gz>
// The snapshot holds Python's memory, not its files: the worker still unpacks the
// packages zip after loading it, for modules imported later.
import { readFileSync, writeFileSync } from "node:fs";
import { gzipSync } from "node:zlib";
import { loadPyodide } from "pyodide";
import { packPages } from "./snapshot_format.mjs";

const [zipPath, outPath] = process.argv.slice(2);
const pyodide = await loadPyodide({ _makeSnapshot: true });
pyodide.unpackArchive(new Uint8Array(readFileSync(zipPath)), "zip", {
  extractDir: "/home/pyodide/lessonkit-packages",
});
pyodide.runPython(`
import sys
sys.path.insert(0, "/home/pyodide/lessonkit-packages")
import importlib, pkgutil
import pysim, lessonkit.bridge
for module in pkgutil.walk_packages(pysim.__path__, "pysim."):
    importlib.import_module(module.name)
# What the lessons import besides pysim.
import asyncio, ast, json, sqlite3, random, dataclasses, collections, difflib, time
`);
const snapshot = pyodide.makeMemorySnapshot();
const packed = packPages(snapshot);
writeFileSync(outPath, gzipSync(packed, { level: 6 }));
process.stdout.write(JSON.stringify({ bytes: snapshot.length, stored: packed.length }));
