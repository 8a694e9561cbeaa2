/**
 * Entry point of the page script: mounts cells, consoles and exercises on every
 * page Material shows.
 *
 * Material for MkDocs publishes each new page on its `document$` observable.
 * With instant navigation this script runs once per visit, not once per page:
 * the Python worker survives page changes, and each later page only gets fresh
 * namespaces. On pages with Python, Material's script comes only once Python is
 * ready (overrides/main.html), so this script mounts the first page itself and
 * follows `document$` from the moment Material says it is there
 * ("lessonkit:theme"). Without Material we fall back to the DOM being ready.
 */
import { mountCells } from "./components/cell";
import { mountConsoles } from "./components/console";
import { mountExercises } from "./components/exercise";
import { installKeyboard, startAtTop } from "./components/keyboard";
import { installMermaidLoader } from "./components/mermaid";
import { mountProgress } from "./components/progress";
import { mountRestartBar } from "./components/restart";
import { installScrollRegions } from "./components/scroll";
import { mountWerkbank } from "./components/werkbank";
import { registerOffline } from "./offline/register";
import { currentPage, keepAcrossReload, outOfDate } from "./offline/stale";
import { cssVersion, STALE_WORKER, staleFile } from "./runtime/deployment";
import { fixRootFromScript, pagePath } from "./runtime/page";
import { PythonRuntime } from "./runtime/python";
import { pageKeyPath, siteKey } from "./runtime/storage";

interface Observable {
  subscribe(next: () => void): unknown;
}

/** This script's deployment (frontend/build.mjs; in this entry file, never in a shared chunk). */
declare const LESSONKIT_BUILD: string;
const BUILD_VERSION: string | null = typeof LESSONKIT_BUILD === "string" ? LESSONKIT_BUILD : null;

declare global {
  interface Window {
    document$?: Observable;
    /** The page's Python runtime and this script's deployment, exposed for tests and the benchmark. */
    lessonkit?: { runtime: PythonRuntime; pages: number; version: string | null };
    /** The loader of Material's script on pages with Python (overrides/main.html). */
    lessonkitTheme?: { load(): void };
  }
}

// The site's root for this visit, from this script's own address: Material's relative
// `__config.base` goes wrong after an instant page change (runtime/page.ts). First, before
// anything names a stored key.
fixRootFromScript(import.meta.url);

// `?v=<deployment>` (lessonkit/build/csp.py) goes on to the files this script starts, so the
// service worker serves them from the same deployment as the page (sw/service-worker.ts).
const version = new URL(import.meta.url).search;
const runtime = new PythonRuntime(new URL(`./worker.js${version}`, import.meta.url));
const lessonkit = { runtime, pages: 0, version: BUILD_VERSION };
window.lessonkit = lessonkit;

/**
 * One deployment per page (runtime/deployment.ts): the page's stamp, this script's and the
 * stylesheet's version must agree, before anything is mounted; a worker of another
 * deployment says so when it starts. Otherwise the page reloads once (offline/stale.ts).
 */
const pageVersion = document.querySelector<HTMLMetaElement>('meta[name="lessonkit-version"]')?.content ?? null;
const staleBy = staleFile(pageVersion, {
  "lessonkit.js": BUILD_VERSION,
  "lessonkit.css": cssVersion(getComputedStyle(document.documentElement).getPropertyValue("--lk-version")),
});
if (staleBy) {
  window.lessonkitEarlyWorker?.worker.terminate();
  window.lessonkitEarlyWorker = undefined;
  void outOfDate(`${pageVersion}→${staleBy}`);
} else {
  // The console commands from before, should the worker turn out to be of another deployment.
  if (pageVersion) keepAcrossReload([siteKey("consoles", pageKeyPath(pagePath()))]);
  runtime.subscribe(() => {
    // Python of this page's deployment runs: an earlier reload for a mismatch is done with.
    if (runtime.state === "ready" && pageVersion) currentPage();
    if (runtime.state === "broken" && runtime.startFailure?.includes(STALE_WORKER)) {
      void outOfDate(`${pageVersion}→worker.js`);
    }
  });
  installMermaidLoader(new URL(`../mermaid.min.js${version}`, import.meta.url));
  registerOffline(runtime);
}
// Firefox keeps a page left while Python loads in its back-forward cache, its worker frozen
// mid-download; the next page's request for the same runtime file then waits for that
// download for ever (tests/engines). Such a page ends its start, and starts anew if it comes back.
window.addEventListener("pagehide", (event) => {
  if (event.persisted && runtime.state === "loading") runtime.stop();
});
window.addEventListener("pageshow", (event) => {
  if (event.persisted && runtime.state === "idle" && document.documentElement.dataset["lkPage"]) runtime.restart("neustart");
});
installKeyboard();
installScrollRegions();

/**
 * Material's script waits for Python (overrides/main.html). It comes once Python has
 * started and what the reader asked for meanwhile is on the page, one frame later:
 * evaluating it holds the main thread, which would hold up that output (measured in
 * benchmarks/README.md).
 */
function loadThemeAfterFirstOutput(): void {
  const theme = window.lessonkitTheme;
  if (!theme) return;
  void runtime.drained().then(() => requestAnimationFrame(() => setTimeout(() => theme.load(), 0)));
}

/**
 * A page of another deployment, reached by instant navigation (lessonkit/build/csp.py stamps
 * each page's content with its version): its cells may need names this script's Python
 * lacks, so it is loaded in full, with its own script and runtime.
 */
function fromAnotherDeployment(): boolean {
  const ours = new URL(import.meta.url).searchParams.get("v");
  const page = document.querySelector<HTMLElement>("[data-lk-version]")?.dataset["lkVersion"];
  return Boolean(ours && page && ours !== page);
}

function mountPage(): void {
  if (staleBy) return; // reloading, or stopped: nothing runs on a page of another deployment
  if (lessonkit.pages > 0 && fromAnotherDeployment()) {
    location.reload();
    return;
  }
  lessonkit.pages += 1;
  const first = lessonkit.pages === 1;
  if (!first) {
    runtime.newPage();
    startAtTop();
  }
  // Tests wait for this to know that the page's components are mounted.
  document.documentElement.dataset["lkPage"] = String(lessonkit.pages);
  mountProgress(document);
  const cellPage = mountCells(document, runtime);
  const cells = cellPage.cells.length;
  const consoles = mountConsoles(document, runtime).length;
  const exercises = mountExercises(document, runtime, (session, element) =>
    cellPage.runCellsAbove(session, element),
  ).length;
  const workbenches = mountWerkbank(document, runtime);
  if (cells + consoles + exercises + workbenches === 0) return;
  if (document.querySelector('[data-lk-cell], [data-lk-console], [data-lk-exercise]:not([data-type="quiz"]), [data-lk-werkbank]')) {
    mountRestartBar(document, runtime);
  }
  // On the first page the <head> already started Python if the page has cells;
  // a later page starts it at once (the reader came to work); otherwise when idle.
  if (window.lessonkitEarlyWorker || !first) void runtime.start().catch(() => undefined);
  else runtime.warmUp();
  if (first) loadThemeAfterFirstOutput();
}

/** Mount later pages from Material's stream, which first replays the page mounted already. */
function followLateTheme(): void {
  let replay = true;
  window.document$?.subscribe(() => {
    if (replay) replay = false;
    else mountPage();
  });
}

if (window.document$) {
  window.document$.subscribe(mountPage);
} else {
  window.addEventListener("lessonkit:theme", followLateTheme, { once: true });
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", mountPage, { once: true });
  else mountPage();
}
