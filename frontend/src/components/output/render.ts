/**
 * Renders a cell's result into its `<output>` element, with the same markup the
 * build writes (lessonkit/build/render.py): text as text (characters that switch the writing
 * direction written as their code point, `../bidi`), pictures sanitised.
 */
import DOMPurify from "dompurify";
import type { CellResult } from "../../runtime/protocol";
import { visibleBidi } from "../bidi";
import { element } from "../dom";

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

/**
 * The prefix of the picture being sanitised: its ids become `<prefix><id>`, and its
 * references to them (`#id`, `url(#id)`) follow, so no picture can take over an
 * address of the page (an exercise's `#anchor`) or of another picture.
 */
let idPrefix = "";
let pictures = 0;

/** `#id` and `url(#id)` pointing into the picture, with its ids' new names. */
function ownReferences(value: string): string {
  return value.replace(/^(\s*)#/, `$1#${idPrefix}`).replace(/url\(\s*(["']?)#/gi, `url($1#${idPrefix}`);
}

purifier.addHook("afterSanitizeAttributes", (node) => {
  for (const attribute of [...node.attributes]) {
    const name = attribute.name.toLowerCase();
    const value = attribute.value;
    if (name === "id") {
      node.setAttribute(attribute.name, `${idPrefix}${value}`);
    } else if (name === "name") {
      node.removeAttribute(attribute.name);
    } else if (name === "style") {
      const style = ownReferences(pictureStyle(value));
      if (style) node.setAttribute(attribute.name, style);
      else node.removeAttribute(attribute.name);
    } else if (name === "class") {
      const own = value.split(/\s+/).filter((token) => token && !PAGE_CLASS.test(token));
      if (own.length) node.setAttribute(attribute.name, own.join(" "));
      else node.removeAttribute(attribute.name);
    } else if (ADDRESS_ATTRIBUTES.has(name) ? !value.trim().startsWith("#") : loadsSomething(value)) {
      node.removeAttribute(attribute.name);
    } else if (ADDRESS_ATTRIBUTES.has(name) || value.toLowerCase().includes("url(")) {
      node.setAttribute(attribute.name, ownReferences(value));
    }
  }
});

/** The kernel's caps on a picture (lessonkit/runtime/kernel.py MAX_SVG_*), kept by the page too. */
export const MAX_SVG_CHARS = 1_000_000;
/** Elements a picture may have: laying out 65,000 of them (well under the character cap)
 * held the page for more than a second. The course's pictures have a few hundred. */
export const MAX_SVG_ELEMENTS = 10_000;

/** Why a picture is not drawn, or null when it may be. */
function tooLarge(svg: string): string | null {
  const number = (n: number): string => n.toLocaleString("de-DE");
  if (svg.length > MAX_SVG_CHARS) {
    return `Bild nicht gezeigt: Das SVG hat ${number(svg.length)} Zeichen, erlaubt sind ${number(MAX_SVG_CHARS)}.`;
  }
  // Each element starts with "<" (as the kernel counts): counted before anything is parsed.
  let elements = 0;
  for (let at = svg.indexOf("<"); at >= 0; at = svg.indexOf("<", at + 1)) elements += 1;
  if (elements > MAX_SVG_ELEMENTS) {
    return `Bild nicht gezeigt: Das SVG hat ${number(elements)} Elemente, erlaubt sind ${number(MAX_SVG_ELEMENTS)}.`;
  }
  return null;
}

/**
 * An SVG from Python, made safe: no code inside a picture can run in the page, no
 * picture can restyle, cover or hide the page or load anything from anywhere.
 * Inline (not an <img>) so pictures follow the light/dark palette via CSS variables
 * (`fill:var(--pysim-fg,#1f2937)` is kept as written).
 */
export function sanitizeSvg(svg: string): DocumentFragment {
  const refused = tooLarge(svg);
  if (refused !== null) {
    const fragment = document.createDocumentFragment();
    fragment.append(element("p", "lk-notice lk-notice--warning", refused));
    return fragment;
  }
  pictures += 1;
  idPrefix = `lk-svg-${pictures}-`;
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

/**
 * Characters of text an output shows: the kernel's caps (lessonkit/runtime/kernel.py:
 * MAX_OUTPUT_CHARS for printed output with its note, MAX_VALUE_CHARS and
 * MAX_ERROR_CHARS with theirs) and some room; what comes beyond is not drawn.
 */
export const MAX_SHOWN_CHARS = 201_000;
export const MAX_VALUE_CHARS = 11_000;

/** `text` cut to `max` characters, with a German note when something was cut. */
function capped(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, max)}\n… gekürzt: ${text.length.toLocaleString("de-DE")} Zeichen sind zu viele für die Seite.`;
}

/** Spans of alternating stdout and stderr an output draws; later switches join the last one. */
export const MAX_SPANS = 2_000;

/** Streamed text waiting for the next frame: into a new span of `stream`, or (null) the last. */
type Pending = { stream: string | null; text: string };

/**
 * Writes output into one `<output>`; streaming first, the final result at the end.
 * Streamed text is drawn once per frame, however many pieces arrive meanwhile: a cell
 * that writes in a tight loop must not keep the page from answering the reader's keys.
 */
export class OutputView {
  private text: HTMLPreElement | null = null;
  /** What `text` shows: [stream, text] per stretch, as the kernel merges its output. */
  private shown: Array<[string, string]> = [];
  /** Characters in `text`; at MAX_SHOWN_CHARS further output is left out, once said. */
  private chars = 0;
  private cut = false;
  /** Spans in `text`; at MAX_SPANS a switch of stream joins the last span, once said. */
  private spans = 0;
  /** The note that stdout and stderr are no longer told apart, once it is said. */
  private mixed: HTMLElement | null = null;
  private pending: Pending[] = [];
  private frame: number | null = null;

  constructor(private readonly root: HTMLOutputElement) {}

  clear(): void {
    this.root.replaceChildren();
    this.text = null;
    this.shown = [];
    this.chars = 0;
    this.cut = false;
    this.spans = 0;
    this.mixed = null;
    this.pending = [];
    if (this.frame !== null) cancelAnimationFrame(this.frame);
    this.frame = null;
  }

  /** Append streamed stdout/stderr while the cell runs (streams other than these two
   * never reach here: runtime/incoming.ts). The cap counts the characters drawn. */
  appendChunk(stream: string, text: string): void {
    let drawn = visibleBidi(text);
    if (this.chars + drawn.length > MAX_SHOWN_CHARS) {
      if (!this.cut) {
        this.cut = true;
        this.root.append(
          element("p", "lk-notice lk-notice--warning", "Weitere Ausgabe wird nicht gezeigt: mehr als 200.000 Zeichen sind zu viele für die Seite."),
        );
      }
      drawn = drawn.slice(0, Math.max(0, MAX_SHOWN_CHARS - this.chars));
      if (!drawn) return;
    }
    this.chars += drawn.length;
    if (!this.text) {
      this.text = element("pre", "lk-output__text");
      this.root.prepend(this.text);
    }
    const merged = this.shown[this.shown.length - 1];
    if (merged && merged[0] === stream) {
      merged[1] += text;
      this.pending.push({ stream: null, text: drawn });
    } else {
      this.shown.push([stream, text]);
      if (this.spans < MAX_SPANS) {
        this.spans += 1;
        this.pending.push({ stream, text: drawn });
      } else {
        if (!this.mixed) {
          this.mixed = element(
            "p",
            "lk-notice lk-notice--info",
            `Ausgabe und Fehlerausgabe wechseln mehr als ${MAX_SPANS.toLocaleString("de-DE")}-mal: Was danach kommt, steht ohne ihre Unterscheidung da.`,
          );
          this.root.append(this.mixed);
        }
        this.pending.push({ stream: null, text: drawn });
      }
    }
    this.frame ??= requestAnimationFrame(() => {
      this.frame = null;
      this.draw();
    });
  }

  /** Draw what streamed in since the last frame: one text per span. */
  private draw(): void {
    const text = this.text;
    if (!text || this.pending.length === 0) return;
    let span = text.lastElementChild as HTMLElement | null;
    let buffer = "";
    const put = (): void => {
      if (buffer && span) span.append(buffer);
      buffer = "";
    };
    for (const piece of this.pending) {
      if (piece.stream !== null) {
        put();
        span = element("span", `lk-${piece.stream}`, "");
        text.append(span);
      }
      buffer += piece.text;
    }
    put();
    this.pending = [];
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
      for (const node of [...this.root.childNodes]) if (node !== this.text && node !== this.mixed) node.remove();
    } else {
      this.clear();
      for (const [stream, text] of result.output) this.appendChunk(stream, text);
    }
    this.draw(); // the result shows at once, not a frame later
    if (result.value !== null) this.root.append(element("pre", "lk-output__value", visibleBidi(capped(result.value, MAX_VALUE_CHARS))));
    if (result.svg !== null) {
      const box = element("div", "lk-output__svg");
      box.append(sanitizeSvg(result.svg));
      this.root.append(box);
    }
    if (result.error !== null) this.root.append(element("pre", "lk-output__error", visibleBidi(capped(result.error, MAX_VALUE_CHARS))));
  }

  /** A message from the page itself (loading, restarted, …), not from Python: after the
   * output, or before it (`at: "start"`). */
  showNotice(message: string, kind: "info" | "warning" = "info", at: "start" | "end" = "end"): void {
    const notice = element("p", `lk-notice lk-notice--${kind}`, message);
    if (at === "start") this.root.prepend(notice);
    else this.root.append(notice);
  }
}
