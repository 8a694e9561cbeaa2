/**
 * The progress overview on the course's start page: per lesson, how many of
 * its exercises this reader has solved (from localStorage, see
 * ../exercise/progress.ts), and `Fortschritt zurücksetzen`. It counts again when an
 * exercise on the same page is solved and when another tab changes the storage.
 */
import { removeItem, keysWith } from "../../runtime/storage";
import { DRAFT_PREFIX } from "../cell/storage";
import { PREFIX, PROGRESS_EVENT, progressKey, readProgress, storageAvailable } from "../exercise/progress";
import { readData } from "../data";

interface LessonExercises {
  path: string;
  ids: string[];
}

function solved(lesson: LessonExercises): number {
  return lesson.ids.filter((id) => readProgress(progressKey(lesson.path, id))?.solved === true).length;
}

function render(root: HTMLElement, lessons: LessonExercises[]): void {
  for (const lesson of lessons) {
    const cell = root.querySelector<HTMLElement>(`.lk-progress__count[data-path="${CSS.escape(lesson.path)}"]`);
    if (!cell) continue;
    const done = solved(lesson);
    cell.textContent = lesson.ids.length === 0 ? "keine Übungen" : `${done} von ${lesson.ids.length} gelöst`;
    cell.dataset["complete"] = String(lesson.ids.length > 0 && done === lesson.ids.length);
  }
}

/** Forget every solved exercise and every saved draft of this course in this browser. */
function resetAll(): void {
  for (const key of keysWith(PREFIX, DRAFT_PREFIX)) removeItem(key);
}

export function mountProgress(scope: ParentNode): void {
  for (const root of scope.querySelectorAll<HTMLElement>("[data-lk-progress]:not([data-lk-mounted])")) {
    root.dataset["lkMounted"] = "true";
    const lessons = readData<LessonExercises[]>(root, ".lk-progress__data", []);
    if (!storageAvailable()) {
      root.insertAdjacentHTML(
        "beforeend",
        '<p class="lk-notice lk-notice--warning">Dein Fortschritt wird in diesem Browser nicht gespeichert (privates Fenster oder Speicher gesperrt).</p>',
      );
      continue;
    }
    render(root, lessons);
    // Solved on this page (PROGRESS_EVENT) or in another tab (storage): count again.
    const update = (): void => {
      if (root.isConnected) render(root, lessons);
      else {
        document.removeEventListener(PROGRESS_EVENT, update);
        window.removeEventListener("storage", update);
      }
    };
    document.addEventListener(PROGRESS_EVENT, update);
    window.addEventListener("storage", update);
    const reset = document.createElement("button");
    reset.type = "button";
    reset.className = "lk-button lk-button--reset";
    reset.textContent = "Fortschritt zurücksetzen";
    reset.addEventListener("click", () => {
      if (!window.confirm("Alle gelösten Übungen und gespeicherten Entwürfe in diesem Browser löschen?")) return;
      resetAll();
      render(root, lessons);
    });
    root.append(reset);
  }
}
