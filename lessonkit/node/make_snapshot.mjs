// Make a Pyodide memory snapshot with pysim and lessonkit already imported, so the
// reader's worker starts Python in a fraction of the time (lessonkit/assets.py).
// Usage: node make_snapshot.mjs <packages.zip> <output.lks.gz>
// The snapshot holds Python's memory, not its files: the worker writes the packages
// zip into the file system again after loading it (packages.mjs), for later imports.
import { readFileSync, writeFileSync } from "node:fs";
import { gzipSync } from "node:zlib";
import { loadPyodide } from "pyodide";
import { installPackages } from "./packages.mjs";
import { packPages } from "./snapshot_format.mjs";

const [zipPath, outPath] = process.argv.slice(2);
const pyodide = await loadPyodide({ _makeSnapshot: true });
installPackages(pyodide, new Uint8Array(readFileSync(zipPath)));
pyodide.runPython(`
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
