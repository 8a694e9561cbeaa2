// What a started Python has imported before the reader's first cell: every pysim module,
// the worker's bridge and what the lessons import besides pysim. Shared by the two ways
// the build prepares a start (make_snapshot.mjs: these modules in memory;
// make_bytecode.mjs: these modules compiled), so both starts hold the same modules.
export const COURSE_IMPORTS = `
import importlib, pkgutil
import pysim, lessonkit.runtime.bridge
for module in pkgutil.walk_packages(pysim.__path__, "pysim."):
    importlib.import_module(module.name)
# What the lessons import besides pysim.
import asyncio, ast, json, sqlite3, random, dataclasses, collections, difflib, time
import lessonkit.runtime.stdlib
`;
