/** Resolves when the browser is idle (at the latest after `timeout` milliseconds). */
export function whenIdle(timeout = 3000): Promise<void> {
  return new Promise((resolve) => {
    if ("requestIdleCallback" in window) window.requestIdleCallback(() => resolve(), { timeout });
    else setTimeout(resolve, 200);
  });
}
