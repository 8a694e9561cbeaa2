/**
 * What the page says when this browser keeps nothing (a private window, storage blocked
 * or full), in one place: each block that stores something names its case, and the words
 * and the notice's look come from here.
 */

/** Each case, with its words: */
const STORAGE_WARNINGS = {
  /** a cell's changed code (once per page, in the cell whose change was not kept) */
  draft: "Änderungen können in diesem Browser nicht gespeichert werden (Speicher voll oder gesperrt).",
  /** an exercise's progress, at the exercise whose save failed */
  exercise: "Dein Fortschritt wird in diesem Browser nicht gespeichert (Speicher gesperrt oder voll).",
  /** the exercises of a page, before the first, when nothing can be stored at all */
  exercises:
    "Hinweis: Dein Fortschritt wird in diesem Browser nicht gespeichert (privates Fenster oder Speicher gesperrt). " +
    "Die Übungen funktionieren trotzdem.",
  /** the progress overview, when it cannot even read */
  overview: "Dein Fortschritt wird in diesem Browser nicht gespeichert (privates Fenster oder Speicher gesperrt).",
  /** the progress overview, when the storage is full (it still reads) */
  full:
    "Der Speicher dieses Browsers für die Seite ist voll: Neuer Fortschritt wird nicht " +
    "gespeichert. „Fortschritt zurücksetzen“ gibt den Platz frei.",
} as const;

export type StorageWarning = keyof typeof STORAGE_WARNINGS;

/** The warning for `kind`, a paragraph; `className` marks it for its block (to find it again). */
export function storageWarning(kind: StorageWarning, className = ""): HTMLParagraphElement {
  const note = document.createElement("p");
  note.className = `lk-notice lk-notice--warning${className ? ` ${className}` : ""}`;
  note.textContent = STORAGE_WARNINGS[kind];
  return note;
}

/**
 * When the page and its scripts are of different deployments of the course
 * (offline/stale.ts): it reloads once, or, when the server still sends the old page,
 * stops before anything runs.
 */
const OUT_OF_DATE = {
  reloading:
    "Diese Seite gehört zu einer älteren Fassung des Kurses. Sie wird neu geladen – " +
    "deine Entwürfe, Konsolenbefehle und dein Fortschritt bleiben erhalten.",
  stuck:
    "Diese Seite gehört zu einer anderen Fassung des Kurses als ihre Skripte, und auch nach dem " +
    "Neuladen kam wieder die alte Fassung. Damit nichts durcheinandergerät, bleibt Python aus. " +
    "Lade die Seite in ein paar Minuten neu; deine Arbeit bleibt gespeichert.",
} as const;

export type OutOfDate = keyof typeof OUT_OF_DATE;

/** The notice for `kind`, a paragraph with the role of a status. */
export function outOfDateNotice(kind: OutOfDate): HTMLParagraphElement {
  const note = document.createElement("p");
  note.className = "lk-notice lk-notice--warning lk-out-of-date";
  note.setAttribute("role", "status");
  note.dataset["kind"] = kind;
  note.textContent = OUT_OF_DATE[kind];
  return note;
}
