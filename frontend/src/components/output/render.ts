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
 * CSS properties a picture may set in a `style` attribute: how it is painted and how
 * its text looks, never where it sits (no `position`, `transform`, `margin`, `z-index`
 * …), so a picture cannot cover or hide the page. Longhands, as the browser's CSS
 * parser spells them (it splits shorthands such as `font` into these).
 */
const PICTURE_STYLES = new Set([
  "fill", "fill-opacity", "fill-rule", "stroke", "stroke-width", "stroke-dasharray",
  "stroke-dashoffset", "stroke-linecap", "stroke-linejoin", "stroke-miterlimit",
  "stroke-opacity", "opacity", "color", "paint-order", "vector-effect", "shape-rendering",
  "text-rendering", "stop-color", "stop-opacity", "flood-color", "flood-opacity",
  "lighting-color", "clip-rule", "font-family", "font-size", "font-style", "font-weight",
  "font-variant", "font-variant-caps", "font-variant-numeric", "font-stretch", "letter-spacing",
  "word-spacing", "text-anchor", "dominant-baseline", "alignment-baseline", "baseline-shift",
  "text-decoration-line", "text-decoration-color", "text-decoration-style", "white-space",
  "visibility", "max-width", "max-height", "width", "height",
]);

/** Attributes whose value is an address: a picture may only point into itself (`#id`). */
const ADDRESS_ATTRIBUTES = new Set(["href", "xlink:href", "src"]);

/** Class names of the page itself (Material `md-…`, the course `lk-…`): its CSS positions some. */
const PAGE_CLASS = /^(md|lk)-/i;

/**
 * Would this CSS value load something? `url(…)` only to a part of the picture
 * (`url(#gradient)`); no `image-set()`, `image()`, `src()` or `@import` at all.
 * Checked on the browser's own serialisation, so CSS escapes are already resolved.
 */
function loadsSomething(value: string): boolean {
  const lower = value.toLowerCase();
  if (/image-set\(|image\(|src\(|@import|\\/.test(lower)) return true;
  return lower.split("url(").slice(1).some((rest) => !/^\s*["']?#/.test(rest));
}

/** A `style` attribute reduced to `PICTURE_STYLES` that load nothing ("" if none is left). */
function pictureStyle(value: string): string {
  const probe = document.createElement("span").style;
  probe.cssText = value;
  const kept: string[] = [];
  for (let index = 0; index < probe.length; index += 1) {
    const name = probe.item(index);
    const declared = probe.getPropertyValue(name);
    if (!PICTURE_STYLES.has(name) || !declared || loadsSomething(declared)) continue;
    const important = probe.getPropertyPriority(name) ? " !important" : "";
    kept.push(`${name}:${declared}${important}`);
  }
  return kept.join(";");
}

/**
 * One DOMPurify of its own for pictures (its hooks are not shared with other uses).
 * DOMPurify removes scripts, event handlers, `<use>` and `<foreignObject>`; the
 * configuration adds `<style>` (a picture's CSS would apply to the whole page) and
 * `data-…` attributes (the theme's script looks elements up by them), and the hook
 * keeps a picture from covering the page or loading anything: only `PICTURE_STYLES`
 * in `style`, none of the page's own class names, addresses only to the picture's own
 * parts, no attribute with a `url(…)` elsewhere (e.g. `fill="url(https://…)"`).
 * The page's CSS adds `contain: paint` around pictures as a second fence.
 */
const purifier = DOMPurify(window);
purifier.addHook("afterSanitizeAttributes", (node) => {
  for (const attribute of [...node.attributes]) {
    const name = attribute.name.toLowerCase();
    const value = attribute.value;
    if (name === "style") {
      const style = pictureStyle(value);
      if (style) node.setAttribute(attribute.name, style);
      else node.removeAttribute(attribute.name);
    } else if (name === "class") {
      const own = value.split(/\s+/).filter((token) => token && !PAGE_CLASS.test(token));
      if (own.length) node.setAttribute(attribute.name, own.join(" "));
      else node.removeAttribute(attribute.name);
    } else if (ADDRESS_ATTRIBUTES.has(name) ? !value.trim().startsWith("#") : loadsSomething(value)) {
      node.removeAttribute(attribute.name);
    }
  }
});

/**
 * An SVG from Python, made safe: no code inside a picture can run in the page, no
 * picture can restyle, cover or hide the page or load anything from anywhere.
 * Inline (not an <img>) so pictures follow the light/dark palette via CSS variables
 * (`fill:var(--pysim-fg,#1f2937)` is kept as written).
 */
export function sanitizeSvg(svg: string): DocumentFragment {
  const fragment = purifier.sanitize(svg, {
    USE_PROFILES: { svg: true, svgFilters: true },
    FORBID_TAGS: ["style", "foreignobject", "a"],
    FORBID_ATTR: ["overflow"],
    ALLOW_DATA_ATTR: false,
    RETURN_DOM_FRAGMENT: true,
  });
  // A picture is one image to assistive technology, named by its <title> and described
  // by its <desc> (the SVG profile drops `role`; no other role is let through).
  for (const node of fragment.children) if (node.localName === "svg") node.setAttribute("role", "img");
  return fragment;
}

/** Writes output into one `<output>`; streaming first, the final result at the end. */
export class OutputView {
  private text: HTMLPreElement | null = null;
  /** What `text` shows: [stream, text] per span, as the kernel merges its output. */
  private shown: Array<[string, string]> = [];

  constructor(private readonly root: HTMLOutputElement) {}

  clear(): void {
    this.root.replaceChildren();
    this.text = null;
    this.shown = [];
  }

  /** Append streamed stdout/stderr while the cell runs. */
  appendChunk(stream: string, text: string): void {
    if (!this.text) {
      this.text = element("pre", "lk-output__text");
      this.root.prepend(this.text);
    }
    const last = this.text.lastElementChild;
    const merged = this.shown[this.shown.length - 1];
    if (last instanceof HTMLSpanElement && last.className === `lk-${stream}` && merged) {
      last.append(text);
      merged[1] += text;
    } else {
      this.text.append(element("span", `lk-${stream}`, text));
      this.shown.push([stream, text]);
    }
  }

  /**
   * Replace everything with the final result (the same structure as the build's).
   * Text that streamed in already and equals the result's stays as it is: laying out
   * up to 200,000 characters again would block the page for a moment.
   */
  showResult(result: CellResult): void {
    const same =
      this.text !== null &&
      this.shown.length === result.output.length &&
      this.shown.every(([stream, text], index) => {
        const [otherStream, otherText] = result.output[index] ?? ["", ""];
        return stream === otherStream && text === otherText;
      });
    if (same) {
      for (const node of [...this.root.childNodes]) if (node !== this.text) node.remove();
    } else {
      this.clear();
      for (const [stream, text] of result.output) this.appendChunk(stream, text);
    }
    if (result.value !== null) this.root.append(element("pre", "lk-output__value", result.value));
    if (result.svg !== null) {
      const box = element("div", "lk-output__svg");
      box.append(sanitizeSvg(result.svg));
      this.root.append(box);
    }
    if (result.error !== null) this.root.append(element("pre", "lk-output__error", result.error));
  }

  /** A message from the page itself (loading, restarted, …), not from Python. */
  /** A notice after the output, or before it (`at: "start"`). */
  showNotice(message: string, kind: "info" | "warning" = "info", at: "start" | "end" = "end"): void {
    const notice = element("p", `lk-notice lk-notice--${kind}`, message);
    if (at === "start") this.root.prepend(notice);
    else this.root.append(notice);
  }
}
