/**
 * Wide tables scroll sideways inside Material's wrapper (`.md-typeset__scrollwrap`); on a
 * phone a reader who uses the keyboard must reach that region too (axe:
 * `scrollable-region-focusable`). A wrapper that overflows becomes a focusable, named
 * region; one that fits stays out of the tab order.
 *
 * Material's script makes the wrappers, and it loads after Python (overrides/main.html),
 * so they are watched for, on every page and at every width.
 */

const WRAPPER = ".md-typeset__scrollwrap";
const NAME = "Tabelle, seitlich scrollbar";

/** One wrapper: focusable and named while it overflows, plain otherwise. */
export function markScrollRegion(wrapper: HTMLElement): void {
  const overflows = wrapper.scrollWidth > wrapper.clientWidth + 1;
  if (overflows) {
    wrapper.tabIndex = 0;
    wrapper.setAttribute("role", "region");
    wrapper.setAttribute("aria-label", NAME);
  } else if (wrapper.getAttribute("aria-label") === NAME) {
    wrapper.removeAttribute("tabindex");
    wrapper.removeAttribute("role");
    wrapper.removeAttribute("aria-label");
  }
}

function markAll(): void {
  for (const wrapper of document.querySelectorAll<HTMLElement>(WRAPPER)) markScrollRegion(wrapper);
}

/** Watch the page for Material's wrappers and the window for a new width (once per tab). */
export function installScrollRegions(): void {
  let pending = false;
  const later = (): void => {
    if (pending) return;
    pending = true;
    requestAnimationFrame(() => {
      pending = false;
      markAll();
    });
  };
  new MutationObserver((records) => {
    const added = records.some((record) =>
      [...record.addedNodes].some(
        (node) => node instanceof HTMLElement && (node.matches(WRAPPER) || node.querySelector(WRAPPER) !== null),
      ),
    );
    if (added) later();
  }).observe(document.body, { childList: true, subtree: true });
  window.addEventListener("resize", later);
  markAll();
}
