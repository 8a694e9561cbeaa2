/**
 * The progress overview on the course's start page: per lesson, how many of
 * its exercises this reader has solved (from localStorage, see
 * ../exercise/progress.ts), and `Fortschritt zurücksetzen`. It counts again when an
 * exercise on the same page is solved and when another tab changes the storage.
 * When the storage is full (nothing new is written, what is stored still reads), it
 * counts what it can read and says so; `Fortschritt zurücksetzen` frees the space.
 */
import { keysWith, misplacedPagePaths, removeItem, siteKey, storageReadable } from "../../runtime/storage";
import { confirmInPage } from "../controls";
import { draftPrefix } from "../cell/storage";
import { exercisePrefix, PROGRESS_EVENT, progressKey, readProgress, storageAvailable } from "../exercise/progress";
import { getBlocks } from "../blocks";
import { storageWarning } from "../notice";
import type { ProgressEntry } from "../../generated/contract";

type LessonExercises = ProgressEntry;

/**
 * Solved exercises of a lesson. Progress that an earlier page script stored under a
 * misplaced key (runtime/storage.ts) counts where its id names one exercise of the whole
 * overview; the lesson's page moves it to its place when the reader comes there (it can
 * check the exercise's digest, which the overview does not know).
 */
function solved(lesson: LessonExercises, unique: (id: string) => boolean, idsOf: (path: string) => string[]): number {
  const misplaced = misplacedPagePaths(lesson.path);
  const solvedAt = (path: string, id: string): boolean => readProgress(progressKey(path, id))?.solved === true;
  return lesson.ids.filter((id) => {
    const stored = readProgress(progressKey(lesson.path, id));
    if (stored) return stored.solved;
    // Solved on the page the exercise stood on before (`umgezogen`), unless that page has
    // an exercise of this id now; the exercise's page moves it here when the reader comes.
    if (lesson.earlier.some((other) => !idsOf(other).includes(id) && solvedAt(other, id))) return true;
    return unique(id) && misplaced.some((other) => solvedAt(other, id));
  }).length;
}

function render(root: HTMLElement, lessons: LessonExercises[]): void {
  const counts = new Map<string, number>();
  for (const id of lessons.flatMap((lesson) => lesson.ids)) counts.set(id, (counts.get(id) ?? 0) + 1);
  const unique = (id: string): boolean => counts.get(id) === 1;
  const idsOf = (path: string): string[] => lessons.find((lesson) => lesson.path === path)?.ids ?? [];
  for (const lesson of lessons) {
    const cell = root.querySelector<HTMLElement>(`.lk-progress__count[data-path="${CSS.escape(lesson.path)}"]`);
    if (!cell) continue;
    const done = solved(lesson, unique, idsOf);
    cell.textContent = lesson.ids.length === 0 ? "keine Übungen" : `${done} von ${lesson.ids.length} gelöst`;
    cell.dataset["complete"] = String(lesson.ids.length > 0 && done === lesson.ids.length);
  }
}

/** Forget every solved exercise, saved draft and console command of this course in this browser. */
function resetAll(): void {
  for (const key of keysWith(exercisePrefix(), draftPrefix(), siteKey("consoles"))) removeItem(key);
}

export function mountProgress(scope: ParentNode): void {
  for (const { root, data: lessons } of getBlocks("progress", scope)) {
    root.dataset["lkMounted"] = "true";
    if (!storageReadable()) {
      root.append(storageWarning("overview"));
      continue;
    }
    let full: HTMLElement | null = null;
    if (!storageAvailable()) {
      full = storageWarning("full", "lk-progress__full");
      root.append(full);
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
      void (async () => {
        const yes = await confirmInPage(reset, reset, {
          question: "Alle gelösten Übungen, gespeicherten Entwürfe und Konsolenbefehle in diesem Browser löschen?",
          yes: "Ja, alles löschen",
          no: "Behalten",
          label: "Fortschritt",
        });
        if (!yes) return;
        resetAll();
        render(root, lessons);
        if (full && storageAvailable()) {
          full.remove();
          full = null;
        }
        reset.focus();
      })();
    });
    root.append(reset);
  }
}
