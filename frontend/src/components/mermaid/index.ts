/**
 * Mermaid from this site, loaded only when a page shows a diagram.
 *
 * Material for MkDocs draws `pre.mermaid` blocks itself (themed for light and
 * dark): it calls `mermaid.initialize(config)` once and `mermaid.render(id, text)`
 * per diagram, and fetches mermaid from unpkg.com when no global `mermaid`
 * exists. We install a small stand-in under that name before Material looks:
 * the first `render` loads the site's own copy of mermaid (3.5 MB, so pages
 * without diagrams never pay for it) once the browser is idle (a reader who
 * clicks "Ausführen" at once gets Python's answer first), hands it the saved
 * configuration and passes the call on. This also holds after instant navigation, where no page
 * script runs again.
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

function whenIdle(): Promise<void> {
  return new Promise((resolve) => {
    if ("requestIdleCallback" in window) window.requestIdleCallback(() => resolve(), { timeout: 2000 });
    else setTimeout(resolve, 200);
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

/** Define the lazy global `mermaid` unless a real one is already there. */
export function installMermaidLoader(scriptUrl: URL): void {
  if (window.mermaid) return;
  let config: unknown = {};
  let real: Promise<MermaidApi> | null = null;
  const stand = {
    initialize(value: unknown): void {
      config = value;
    },
    render(id: string, text: string): Promise<unknown> {
      real ??= whenIdle()
        .then(() => loadScript(scriptUrl))
        .then(() => {
          // The script replaced the stand-in with the real mermaid.
          const mermaid = window.mermaid;
          if (!mermaid || mermaid === stand) throw new Error("mermaid fehlt nach dem Laden.");
          mermaid.initialize(config);
          return mermaid;
        });
      return real.then((mermaid) => mermaid.render(id, text));
    },
  } satisfies MermaidApi;
  window.mermaid = stand;
}
