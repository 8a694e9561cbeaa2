/**
 * The page's "Python neu starten": a small bar at the top of a page with Python.
 * It is the way back when the reader's code damaged Python (deleted built-ins, …),
 * and it says when and why Python was restarted (Stopp, the button, a crash).
 * The same way back sits in every notice that says Python is damaged (`restartButton`).
 */
import type { PythonRuntime, RestartReason } from "../../runtime/python";
import { button as makeButton } from "../controls";

const SAID: Record<RestartReason, string> = {
  stopp: "Python wurde neu gestartet (Stopp).",
  neustart: "Python wurde neu gestartet.",
  absturz: "Python war abgestürzt und wurde neu gestartet.",
  beendet: "Code hat Python beendet (close()); Python wurde neu gestartet.",
  flut: "Python hat die Seite mit Nachrichten überflutet und wurde neu gestartet.",
  speicher: "Python hatte keinen freien Speicher mehr und wurde neu gestartet.",
};

/** Put the bar under the page's heading (once per page). */
export function mountRestartBar(scope: Document, runtime: PythonRuntime): void {
  const article = scope.querySelector<HTMLElement>("article") ?? scope.body;
  if (article.querySelector("[data-lk-python-bar]")) return;
  const bar = document.createElement("div");
  bar.className = "lk-python-bar";
  bar.dataset["lkPythonBar"] = "";
  const status = document.createElement("span");
  status.className = "lk-python-bar__status";
  status.setAttribute("role", "status");
  const button = document.createElement("button");
  button.type = "button";
  button.className = "lk-button lk-button--small lk-button--restart";
  button.textContent = "Python neu starten";
  button.title = "Beendet alles, was läuft; alle Variablen der Seite sind danach weg";
  button.addEventListener("click", () => runtime.restart("neustart"));
  bar.append(button, " ", status);
  runtime.onRestart((reason) => {
    status.textContent = `${SAID[reason]} Alle Variablen der Seite sind weg; Zellen laufen beim nächsten Ausführen neu.`;
  });
  const heading = article.querySelector("h1");
  if (heading) heading.after(bar);
  else article.prepend(bar);
}

/** A "Python neu starten" button for a notice: the way back when Python is damaged. */
export function restartButton(runtime: PythonRuntime): HTMLButtonElement {
  const node = makeButton("Python neu starten", "lk-button--small lk-button--restart", "Python neu starten: alle Variablen der Seite sind danach weg");
  node.addEventListener("click", () => runtime.restart("neustart"));
  return node;
}
