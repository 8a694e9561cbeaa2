/**
 * Buttons of the course's blocks. A busy button is marked `aria-disabled`, not
 * `disabled`: a disabled button loses keyboard focus (it drops to <body>, and
 * Space then scrolls the page), an aria-disabled one keeps it and ignores clicks.
 */

/** A button; `name` (its accessible name) must contain the visible label. */
export function button(label: string, className: string, title = "", name = ""): HTMLButtonElement {
  const node = document.createElement("button");
  node.type = "button";
  node.className = `lk-button ${className}`;
  node.textContent = label;
  if (title) node.title = title;
  if (name) node.setAttribute("aria-label", name);
  // Registered first: a click on an unavailable button reaches no other listener, and a
  // submit button does not submit (Enter in a form's field clicks its default button, HTML's
  // "implicit submission", also while it is only aria-disabled).
  node.addEventListener(
    "click",
    (event) => {
      if (available(node)) return;
      event.stopImmediatePropagation();
      event.preventDefault();
    },
    { capture: true },
  );
  return node;
}

export function setAvailable(node: HTMLButtonElement, on: boolean): void {
  if (on) node.removeAttribute("aria-disabled");
  else node.setAttribute("aria-disabled", "true");
}

export function available(node: HTMLButtonElement): boolean {
  return node.getAttribute("aria-disabled") !== "true" && !node.disabled;
}

/** A block's status ("Läuft …", "Fertig"): its one live region; its class says how it looks. */
export function statusRegion(className: string): HTMLSpanElement {
  const node = document.createElement("span");
  node.className = className;
  node.setAttribute("role", "status");
  return node;
}

/** What an in-page confirmation asks and answers; `label` names the block ("Übung 4"). */
export interface ConfirmText {
  question: string;
  yes: string;
  no: string;
  label: string;
}

let confirmations = 0;
const openConfirmations = new WeakMap<HTMLButtonElement, { box: HTMLElement; answer: Promise<boolean> }>();

/**
 * Ask in the page instead of with the browser's `confirm()`, which ignores the theme and
 * stops the page: a group named by the question, placed after `place`, with a yes and a
 * no button. Focus moves to yes; no, or Escape anywhere in the group, closes it and
 * focus goes back to `trigger`. Resolves true for yes (the caller then moves focus to
 * what it shows). Pressing `trigger` again while the question is open only moves focus
 * back to it.
 */
export function confirmInPage(trigger: HTMLButtonElement, place: Element, text: ConfirmText): Promise<boolean> {
  const current = openConfirmations.get(trigger);
  if (current) {
    current.box.querySelector<HTMLButtonElement>("button")?.focus();
    return current.answer;
  }
  confirmations += 1;
  const box = document.createElement("div");
  box.className = "lk-confirm";
  box.id = `lk-confirm-${confirmations}`;
  box.setAttribute("role", "group");
  const question = document.createElement("p");
  question.className = "lk-confirm__question";
  question.id = `${box.id}-frage`;
  question.textContent = text.question;
  box.setAttribute("aria-labelledby", question.id);
  const yes = button(text.yes, "lk-button--run", "", `${text.yes}: ${text.label}`);
  const no = button(text.no, "lk-button--cancel", "", `${text.no}: ${text.label}`);
  const actions = document.createElement("div");
  actions.className = "lk-confirm__actions";
  actions.append(yes, no);
  box.append(question, actions);
  place.after(box);
  trigger.setAttribute("aria-expanded", "true");
  trigger.setAttribute("aria-controls", box.id);
  const answer = new Promise<boolean>((resolve) => {
    const close = (value: boolean): void => {
      openConfirmations.delete(trigger);
      trigger.setAttribute("aria-expanded", "false");
      trigger.removeAttribute("aria-controls");
      if (!value) trigger.focus();
      box.remove();
      resolve(value);
    };
    yes.addEventListener("click", () => close(true));
    no.addEventListener("click", () => close(false));
    box.addEventListener("keydown", (event) => {
      if (event.key !== "Escape") return;
      event.preventDefault();
      event.stopPropagation();
      close(false);
    });
  });
  openConfirmations.set(trigger, { box, answer });
  yes.focus();
  return answer;
}
