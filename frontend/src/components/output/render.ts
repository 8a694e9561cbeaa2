/**
 * Renders a cell's result into its `<output>` element, with the same markup the
 * build writes (lessonkit/render.py): text as text, pictures sanitised.
 */
import DOMPurify from "dompurify";
import type { CellResult } from "../../runtime/protocol";

function element<K extends keyof HTMLElementTagNameMap>(tag: K, className: string, text?: string): HTMLElementTagNameMap[K] {
  const node = document.createElement(tag);
  node.className = className;
  if (text !== undefined) node.textContent = text;
  return node;
}

/**
 * An SVG from Python, made safe: DOMPurify removes scripts, event handlers and
 * foreign references, so no code inside a picture can run in the page. Inline
 * (not an <img>) so pictures follow the light/dark palette via CSS variables.
 */
export function sanitizeSvg(svg: string): DocumentFragment {
  return DOMPurify.sanitize(svg, {
    USE_PROFILES: { svg: true, svgFilters: true },
    RETURN_DOM_FRAGMENT: true,
  });
}

/** Writes output into one `<output>`; streaming first, the final result at the end. */
export class OutputView {
  private text: HTMLPreElement | null = null;

  constructor(private readonly root: HTMLOutputElement) {}

  clear(): void {
    this.root.replaceChildren();
    this.text = null;
  }

  /** Append streamed stdout/stderr while the cell runs. */
  appendChunk(stream: string, text: string): void {
    if (!this.text) {
      this.text = element("pre", "lk-output__text");
      this.root.prepend(this.text);
    }
    const last = this.text.lastElementChild;
    if (last instanceof HTMLSpanElement && last.className === `lk-${stream}`) {
      last.append(text);
    } else {
      this.text.append(element("span", `lk-${stream}`, text));
    }
  }

  /** Replace everything with the final result (the same structure as the build's). */
  showResult(result: CellResult): void {
    this.clear();
    for (const [stream, text] of result.output) this.appendChunk(stream, text);
    if (result.value !== null) this.root.append(element("pre", "lk-output__value", result.value));
    if (result.svg !== null) {
      const box = element("div", "lk-output__svg");
      box.append(sanitizeSvg(result.svg));
      this.root.append(box);
    }
    if (result.error !== null) this.root.append(element("pre", "lk-output__error", result.error));
  }

  /** A message from the page itself (loading, restarted, …), not from Python. */
  showNotice(message: string, kind: "info" | "warning" = "info"): void {
    this.root.append(element("p", `lk-notice lk-notice--${kind}`, message));
  }
}
