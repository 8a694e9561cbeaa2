/**
 * Regions that scroll must be reachable by a reader who uses the keyboard (axe:
 * `scrollable-region-focusable`): wide tables inside Material's wrapper
 * (`.md-typeset__scrollwrap`) on a phone, and a cell's output taller than its box (at
 * most 30rem, lessonkit.css), which a long log on a phone easily is. A region that
 * overflows becomes a focusable, named region; one that fits stays out of the tab order.
 *
 * Material's script makes the wrappers, and it loads after Python (overrides/main.html);
 * outputs grow while a cell runs. So both are watched for, on every page and at every width.
 */

const WRAPPER = ".md-typeset__scrollwrap";
const OUTPUT = ".lk-output pre, .lk-exercise__feedback pre";
const NAMES = { table: "Tabelle, seitlich scrollbar", output: "Ausgabe, scrollbar" } as const;

/** One region: focusable and named while it overflows, plain otherwise. */
export function markScrollRegion(region: HTMLElement, kind: keyof typeof NAMES = "table"): void {
  const name = NAMES[kind];
  const overflows =
    region.scrollWidth > region.clientWidth + 1 || (kind === "output" && region.scrollHeight > region.clientHeight + 1);
  if (overflows) {
    region.tabIndex = 0;
    region.setAttribute("role", "region");
    region.setAttribute("aria-label", name);
  } else if (region.getAttribute("aria-label") === name) {
    region.removeAttribute("tabindex");
    region.removeAttribute("role");
    region.removeAttribute("aria-label");
  }
}

function markAll(): void {
  for (const wrapper of document.querySelectorAll<HTMLElement>(WRAPPER)) markScrollRegion(wrapper);
  for (const output of document.querySelectorAll<HTMLElement>(OUTPUT)) markScrollRegion(output, "output");
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
  const watched = `${WRAPPER}, ${OUTPUT}`;
  new MutationObserver((records) => {
    const changed = records.some(
      (record) =>
        (record.target instanceof Element && record.target.closest(".lk-output, .lk-exercise__feedback") !== null) ||
        [...record.addedNodes].some(
          (node) => node instanceof HTMLElement && (node.matches(watched) || node.querySelector(watched) !== null),
        ),
    );
    if (changed) later();
  }).observe(document.body, { childList: true, subtree: true });
  window.addEventListener("resize", later);
  markAll();
}
