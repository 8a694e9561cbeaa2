/**
 * Entry point of the page script: mounts cells and consoles on every page Material shows.
 *
 * Material for MkDocs publishes each new page on its `document$` observable
 * (also after instant navigation), so we start from there, not from
 * DOMContentLoaded. Without Material we fall back to the DOM being ready.
 */
import { mountCells } from "./components/cell";
import { mountConsoles } from "./components/console";
import { mountExercises } from "./components/exercise";
import { mountProgress } from "./components/progress";
import { PythonRuntime } from "./runtime/python";

interface Observable {
  subscribe(next: () => void): unknown;
}

declare global {
  interface Window {
    document$?: Observable;
    /** The page's Python runtime, exposed for tests and the benchmark. */
    lessonkit?: { runtime: PythonRuntime };
  }
}

const runtime = new PythonRuntime(new URL("./worker.js", import.meta.url));
window.lessonkit = { runtime };

function mountPage(): void {
  mountProgress(document);
  const cells = mountCells(document, runtime).cells.length;
  const consoles = mountConsoles(document, runtime).length;
  const exercises = mountExercises(document, runtime).length;
  if (cells + consoles + exercises === 0) return;
  // The <head> already started Python on pages with cells; otherwise start when idle.
  if (window.lessonkitEarlyWorker) void runtime.start().catch(() => undefined);
  else runtime.warmUp();
}

if (window.document$) {
  window.document$.subscribe(mountPage);
} else if (document.readyState === "loading") {
  document.addEventListener("DOMContentLoaded", mountPage, { once: true });
} else {
  mountPage();
}
