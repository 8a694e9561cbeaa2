// Compile what a started Python imports into bytecode, for the reader's start without the
// memory snapshot (lessonkit/build/assets.py, issue 53): a slow connection gets Python
// ready sooner from 1.9 MB of bytecode and a few hundred milliseconds of processor than
// from the 4.9 MB snapshot (benchmarks/README.md).
// Usage: node make_bytecode.mjs <packages.zip> <stdlib-out.zip> <packages-out.zip>
//
// Both zips are stored (not deflated): the build compresses each whole with Zstandard,
// which finds what modules share; Python imports from them with zipimport as they are.
// * stdlib-out: the standard library's modules the course imports (COURSE_IMPORTS and
//   Pyodide's own start), as .pyc only, plus `_lessonkit_stdlib_names`, the top-level
//   names of the full library, for which lessonkit/runtime/stdlib.py fetches the full
//   zip on demand (as after a start from the snapshot).
// * packages-out: the packages zip's modules as .pyc only. Their sources are not needed:
//   the kernel's tracebacks show only the reader's frames (lessonkit/runtime/kernel.py),
//   and the reader's code is compiled in the browser as in every start.
// The .pyc are hash-based and unchecked (PEP 552): nothing compares them to a source or a
// file time, and the same sources give the same bytes.
import { readFileSync, writeFileSync } from "node:fs";
import { loadPyodide } from "pyodide";
import { COURSE_IMPORTS } from "./course_imports.mjs";
import { installPackages, PACKAGES_ZIP } from "./packages.mjs";

const [zipPath, stdlibOut, packagesOut] = process.argv.slice(2);
const pyodide = await loadPyodide({ env: { PYTHONHASHSEED: "0" } });
installPackages(pyodide, new Uint8Array(readFileSync(zipPath)));
pyodide.runPython(COURSE_IMPORTS);
const made = pyodide.runPython(`
import importlib.util, io, marshal, sys, zipfile
from importlib._bootstrap_external import _code_to_hash_pyc
import lessonkit.runtime.stdlib as _stdlib

def _pyc(source, filename):
    code = compile(source, filename, "exec", dont_inherit=True)
    return bytes(_code_to_hash_pyc(code, importlib.util.source_hash(source), checked=False))

def _zip(entries):
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_STORED) as archive:
        for name, data in sorted(entries.items()):
            info = zipfile.ZipInfo(name, date_time=(2020, 1, 1, 0, 0, 0))
            info.external_attr = 0o644 << 16
            archive.writestr(info, data)
    return buffer.getvalue()

def _modules_in(zip_path):
    """{path in the zip: source} of every imported module that came from zip_path."""
    archive = zipfile.ZipFile(zip_path)
    found = {}
    for module in list(sys.modules.values()):
        file = getattr(module, "__file__", None) or ""
        if file.startswith(zip_path + "/"):
            inner = file[len(zip_path) + 1:]
            found[inner] = archive.read(inner)
    return found

_full = _stdlib.top_level_names()
_lean = {name + "c": _pyc(source, f"{_stdlib.ZIP_PATH}/{name}") for name, source in _modules_in(_stdlib.ZIP_PATH).items()}
_names = "NAMES = " + repr(tuple(_full)) + "\\n"
_lean["_lessonkit_stdlib_names.pyc"] = _pyc(_names.encode(), f"{_stdlib.ZIP_PATH}/_lessonkit_stdlib_names.py")
_packages = {}
with zipfile.ZipFile(${JSON.stringify(PACKAGES_ZIP)}) as _archive:
    for _name in _archive.namelist():
        _source = _archive.read(_name)
        if _name.endswith(".py"):
            _packages[_name + "c"] = _pyc(_source, f"${PACKAGES_ZIP}/{_name}")
        else:
            _packages[_name] = _source
(_zip(_lean), _zip(_packages), len(_lean), len(_packages))
`);
const [stdlib, packages, stdlibCount, packagesCount] = made.toJs();
made.destroy();
writeFileSync(stdlibOut, stdlib);
writeFileSync(packagesOut, packages);
process.stdout.write(JSON.stringify({ stdlib: [stdlib.length, stdlibCount], packages: [packages.length, packagesCount] }));
