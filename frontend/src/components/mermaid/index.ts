/**
 * Mermaid from this site, loaded only when a diagram comes into view.
 *
 * Material for MkDocs draws `pre.mermaid` blocks itself (themed for light and
 * dark): it calls `mermaid.initialize(config)` once and `mermaid.render(id, text)`
 * per diagram, and fetches mermaid from unpkg.com when no global `mermaid`
 * exists. We keep a small stand-in under that name: each `render` waits until
 * its diagram is near the viewport, the first one loads the site's own copy of
 * mermaid (megabytes; pages without diagrams never pay for it), and the call is
 * passed on. Drawing a diagram takes the main thread for a while, so a reader
 * who clicks "Ausführen" at the top of a page gets Python's answer first. The
 * stand-in stays in place after instant navigation, where no page script runs again.
 */

interface MermaidApi {
  initialize(config: unknown): void;
  render(id: string, text: string): Promise<unknown>;
}

declare global {
  interface Window {
    mermaid?: MermaidApi;
  }
}

const waiting = new WeakSet<Element>();

/** Resolves when the diagram with source `text` is near the viewport (at once if not found). */
function whenNearViewport(text: string): Promise<void> {
  const element = [...document.querySelectorAll("pre.mermaid")].find(
    (candidate) => candidate.textContent === text && !waiting.has(candidate),
  );
  if (!element) return Promise.resolve();
  waiting.add(element);
  return new Promise((resolve) => {
    const observer = new IntersectionObserver(
      (entries) => {
        if (!entries.some((entry) => entry.isIntersecting)) return;
        observer.disconnect();
        resolve();
      },
      { rootMargin: "300px 0px" },
    );
    observer.observe(element);
  });
}

function loadScript(url: URL): Promise<void> {
  return new Promise((resolve, reject) => {
    const script = document.createElement("script");
    script.src = url.href;
    script.onload = () => resolve();
    script.onerror = () => reject(new Error(`${url.pathname} ließ sich nicht laden.`));
    document.head.append(script);
  });
}

/** Define the lazy global `mermaid` unless a real one is already there (the page's own
 * stand-in from overrides/main.html, which loads at once, gives way to this one). */
export function installMermaidLoader(scriptUrl: URL): void {
  if (window.mermaid && !(window.mermaid as MermaidApi & { lkFallback?: boolean }).lkFallback) return;
  let config: unknown = {};
  let real: Promise<MermaidApi> | null = null;
  const load = async (): Promise<MermaidApi> => {
    await loadScript(scriptUrl);
    // The script put the real mermaid in our place; keep the stand-in in charge.
    const mermaid = window.mermaid;
    window.mermaid = stand;
    if (!mermaid || mermaid === stand) throw new Error("mermaid fehlt nach dem Laden.");
    mermaid.initialize(config);
    return mermaid;
  };
  const stand: MermaidApi = {
    initialize(value: unknown): void {
      config = value;
    },
    async render(id: string, text: string): Promise<unknown> {
      await whenNearViewport(text);
      real ??= load();
      return (await real).render(id, text);
    },
  };
  window.mermaid = stand;
}
