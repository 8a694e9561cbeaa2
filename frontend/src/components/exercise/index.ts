/**
 * Exercises: predictions, code tasks, console tasks, quizzes and challenges, one module per
 * kind (./prediction.ts, ./codetask.ts, ./consoletask.ts, ./quiz.ts, ./challenge-exercise.ts)
 * on what they share (./base.ts).
 *
 * Each mounts onto the markup of lessonkit/fences/exercises.py (render_exercise),
 * checks in the page's Python worker through `lessonkit.runtime.bridge` (the same
 * checks the build ran to prove the exercise sound) and keeps the reader's
 * progress in localStorage (./progress.ts).
 *
 * A reader may fail and try again (issue 26): a wrong answer hears "Noch nicht" and
 * what is wrong (./attempts.ts), never the solution; the solution shows on "Lösung
 * zeigen" after an in-page confirmation (controls.ts `confirmInPage`), or by itself
 * once the author's number of tries (`versuche`) is used up. Progress records the
 * tries and whether the solution was shown. A code task also runs without a verdict
 * (Ausführen).
 */
import { type Block, getBlocks } from "../blocks";
import { storageWarning } from "../notice";
import type { PythonRuntime } from "../../runtime/python";
import { type CellsAbove, type Exercise } from "./base";
import { ChallengeExercise } from "./challenge-exercise";
import { CodeTaskExercise } from "./codetask";
import { ConsoleTaskExercise } from "./consoletask";
import { PredictionExercise } from "./prediction";
import { storageAvailable } from "./progress";
import { QuizExercise } from "./quiz";

/** The exercise of the kind its data names. */
function mountExercise({ root, data }: Block<"exercise">, runtime: PythonRuntime, cellsAbove: CellsAbove): Exercise {
  switch (data.type) {
    case "vorhersage":
      return new PredictionExercise(root, data, runtime, cellsAbove);
    case "aufgabe":
      return new CodeTaskExercise(root, data, runtime);
    case "konsolen-aufgabe":
      return new ConsoleTaskExercise(root, data, runtime);
    case "quiz":
      return new QuizExercise(root, data, runtime);
    case "herausforderung":
      return new ChallengeExercise(root, data, runtime);
  }
}

/** A page without cells: nothing stands above a prediction. */
const noCells: CellsAbove = () => Promise.resolve({ kind: "ok" });

/** Mount every exercise in `scope`; tell the reader once if progress cannot be saved;
 * `cellsAbove` runs the cells a prediction with `session` needs (the page's `CellPage`). */
export function mountExercises(scope: ParentNode, runtime: PythonRuntime, cellsAbove: CellsAbove = noCells): Exercise[] {
  const mounted = getBlocks("exercise", scope).map((block) => mountExercise(block, runtime, cellsAbove));
  for (const exercise of mounted) exercise.mounted();
  if (mounted.length > 0 && !storageAvailable()) {
    const note = storageWarning("exercises");
    note.setAttribute("role", "status");
    mounted[0]?.root.before(note);
  }
  return mounted;
}
