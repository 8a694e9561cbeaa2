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
  // Registered first: a click on an unavailable button reaches no other listener.
  node.addEventListener(
    "click",
    (event) => {
      if (!available(node)) event.stopImmediatePropagation();
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
