/**
 * Keyboard and focus across the page.
 *
 * Material answers single keys anywhere but in text fields (`n`/`.` next page,
 * `p`/`,` previous page, `s`/`f`/`/` search): pressed while a course button or
 * other control of a block has focus, they left the page. Material listens on
 * `window`, so stopping such a key at `document` keeps it inside the block.
 *
 * After instant navigation the new page starts at its top with focus on its
 * heading (Material kept the scroll position and focus of the link in the footer);
 * Back and Forward keep Material's restored position, and a link to a heading
 * keeps its target.
 */

const BLOCKS = "[data-lk-cell], [data-lk-console], [data-lk-exercise], [data-lk-werkbank], [data-lk-python-bar]";

let installed = false;
/** When the last history move (Back/Forward) happened. */
let poppedAt = -Infinity;

export function installKeyboard(): void {
  if (installed) return;
  installed = true;
  document.addEventListener("keydown", (event) => {
    if (event.ctrlKey || event.metaKey || event.altKey || event.key.length !== 1) return;
    const target = event.target;
    if (target instanceof Element && target.closest(BLOCKS)) event.stopPropagation();
  });
  window.addEventListener("popstate", () => {
    poppedAt = performance.now();
  });
}

/** A page reached by following a link (not Back/Forward, not `#heading`): top, heading focused. */
export function startAtTop(): void {
  if (location.hash || performance.now() - poppedAt < 1000) return;
  const heading = document.querySelector<HTMLElement>("article h1, h1");
  window.scrollTo(0, 0);
  if (!heading) return;
  heading.tabIndex = -1;
  heading.focus({ preventScroll: true });
}
