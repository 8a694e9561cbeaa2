// How Pyodide gets the course's Python packages (pysim, the browser's part of lessonkit),
// shared by the build's snapshot maker, the reader's worker and the Node.js test runner.
//
// The package zip is written into Pyodide's file system as it is and put on sys.path:
// Python imports straight from it (zipimport), the way it imports the standard library,
// so no start runs Python's zipfile and shutil to unpack it.

/** Where the zip lives in Pyodide's file system (the snapshot remembers this path). */
export const PACKAGES_ZIP = "/home/pyodide/lessonkit-packages.zip";

/** Put `zip` (the bytes of packages-<hash>.zip) where Python imports from it. */
export function installPackages(pyodide, zip) {
  pyodide.FS.writeFile(PACKAGES_ZIP, zip);
  const path = JSON.stringify(PACKAGES_ZIP);
  pyodide.runPython(`import sys\nif ${path} not in sys.path: sys.path.insert(0, ${path})`);
}
