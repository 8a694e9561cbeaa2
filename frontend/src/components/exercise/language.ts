/**
 * The language a reader writes a challenge's node in: Python or TypeScript. One choice per
 * reader for the whole site, kept in localStorage (`lk:<site>:sprache`), so every challenge
 * page opens in the language picked last; every challenge on the open page and in other tabs
 * follows a change at once (a `storage` event from another tab, an event of its own here).
 */
import { readItem, siteKey, writeItem } from "../../runtime/storage";

export type NodeLanguage = "python" | "typescript";

/** How each language is called on the page. */
export const LANGUAGE_NAMES: Record<NodeLanguage, string> = { python: "Python", typescript: "TypeScript" };

/** Fired on `document` when the reader picks another language in this tab. */
const CHANGED = "lk-node-language";

function key(): string {
  return siteKey("sprache");
}

function parse(value: string | null): NodeLanguage {
  return value === "typescript" ? "typescript" : "python";
}

/** The reader's language (Python until they pick another, or when storage is unreadable). */
export function storedLanguage(): NodeLanguage {
  return parse(readItem(key()));
}

/** Keep `language` as the reader's choice and tell every challenge of the page. */
export function chooseLanguage(language: NodeLanguage): void {
  writeItem(key(), language);
  document.dispatchEvent(new CustomEvent<NodeLanguage>(CHANGED, { detail: language }));
}

/** Calls `follow` with each language the reader picks from now on, here or in another tab. */
export function onLanguageChange(follow: (language: NodeLanguage) => void): void {
  document.addEventListener(CHANGED, (event) => follow((event as CustomEvent<NodeLanguage>).detail));
  window.addEventListener("storage", (event) => {
    if (event.key === key()) follow(parse(event.newValue));
  });
}

let groups = 0;

/** The choice above a challenge's editor: two radio buttons in a named group, so a screen
 * reader says which language is chosen and the arrow keys switch. */
export class LanguageChoice {
  readonly element: HTMLFieldSetElement;
  private readonly inputs: Record<NodeLanguage, HTMLInputElement>;

  constructor(label: string, current: NodeLanguage, pick: (language: NodeLanguage) => void) {
    this.element = document.createElement("fieldset");
    this.element.className = "lk-language";
    // Named with the challenge: a page may have two (each with its own editor).
    this.element.setAttribute("aria-label", `Dein Knoten in (${label})`);
    const legend = document.createElement("legend");
    legend.className = "lk-language__legend";
    legend.textContent = "Dein Knoten in";
    this.element.append(legend);
    const name = `lk-language-${++groups}`;
    const made: Partial<Record<NodeLanguage, HTMLInputElement>> = {};
    for (const language of ["python", "typescript"] as const) {
      const option = document.createElement("label");
      option.className = "lk-language__option";
      const input = document.createElement("input");
      input.type = "radio";
      input.name = name;
      input.value = language;
      input.checked = language === current;
      input.addEventListener("change", () => {
        if (input.checked) pick(language);
      });
      option.append(input, ` ${LANGUAGE_NAMES[language]}`);
      this.element.append(option);
      made[language] = input;
    }
    this.inputs = made as Record<NodeLanguage, HTMLInputElement>;
  }

  /** Shows `language` as chosen (when another tab or challenge changed it). */
  show(language: NodeLanguage): void {
    this.inputs[language].checked = true;
  }

  /** While a check runs the language stays (its code is what the check runs). */
  setAvailable(on: boolean): void {
    for (const input of Object.values(this.inputs)) input.disabled = !on;
  }
}
