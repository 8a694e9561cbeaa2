/**
 * The code editor of a cell or exercise: CodeMirror 6 with Python support, or TypeScript's
 * for a challenge's node written in TypeScript (`language`, switchable: `setLanguage`), and
 * problems shown at their line (`showProblems`: a TypeScript node's type errors in German).
 *
 * Loaded on demand (a separate chunk), so pages without cells never download
 * it. Colours come from Material's code-highlight CSS variables through
 * CodeMirror's class highlighter, so the editor follows the light/dark palette.
 *
 * Keyboard (CodeMirror's accessible pattern, the same in every editor): Tab moves
 * focus on to the next control until the reader starts typing; from then on Tab
 * indents, and Escape followed by Tab leaves the editor. Ctrl+M switches between
 * the two at any time. A hint under the editor says which one holds; on a touch
 * screen (a phone's keyboard has neither Tab nor Esc) it says what works there.
 */
import { defaultKeymap, history, historyKeymap, indentWithTab } from "@codemirror/commands";
import { javascript } from "@codemirror/lang-javascript";
import { python } from "@codemirror/lang-python";
import { type Diagnostic, lintGutter, setDiagnostics } from "@codemirror/lint";
import { bracketMatching, indentOnInput, indentUnit, syntaxHighlighting } from "@codemirror/language";
import { Compartment, EditorState, type Extension, RangeSetBuilder } from "@codemirror/state";
import {
  Decoration,
  type DecorationSet,
  EditorView,
  ViewPlugin,
  type ViewUpdate,
  drawSelection,
  highlightActiveLine,
  keymap,
  lineNumbers,
} from "@codemirror/view";
import { classHighlighter } from "@lezer/highlight";

/** The languages an editor writes: Python everywhere, TypeScript for a challenge's node. */
export type EditorLanguage = "python" | "typescript";

/** A problem at a line of the reader's code (1-based), said in German. */
export interface LineProblem {
  line: number;
  column?: number;
  message: string;
}

export interface EditorOptions {
  code: string;
  label: string;
  language?: EditorLanguage;
  readOnly?: boolean;
  onRun: () => void;
  onChange: (code: string) => void;
}

export interface CellEditor {
  getCode(): string;
  setCode(code: string): void;
  setReadOnly(readOnly: boolean): void;
  /** Another language, with its code (a challenge's node in Python or TypeScript). */
  setLanguage(language: EditorLanguage, code: string): void;
  /** Marks each problem at its line (none: the marks go). */
  showProblems(problems: LineProblem[]): void;
  focus(): void;
}

/** What an editor in `language` highlights and indents with, and what it is called. */
function languageSupport(language: EditorLanguage): { extensions: Extension[]; name: string } {
  return language === "typescript"
    ? { extensions: [indentUnit.of("  "), javascript({ typescript: true })], name: "TypeScript" }
    : { extensions: [indentUnit.of("    "), python()], name: "Python" };
}

/** What Tab does now, in the hint under the editor. */
const HINT = {
  moves: "Tab: zum nächsten Element · Strg+M: Tab rückt ein",
  indents: "Tab rückt ein · Esc, dann Tab: Editor verlassen · Strg+M: Tab wechselt das Element",
};
/** The hint on a touch screen (docs/assets/lessonkit.css shows one of the two). */
const TOUCH_HINT = "„Ausführen“ startet den Code · tippe neben den Editor, um ihn zu verlassen";

let hints = 0;

/**
 * Long lines wrap (a phone shows about 40 characters), and a wrapped line's continuation
 * starts under its own indentation, not at the margin: each visible line carries its
 * leading whitespace as `--lk-indent`, and docs/assets/lessonkit.css indents what wraps
 * by that much (a hanging indent: padding plus a negative text-indent).
 */
const hangingIndent = ViewPlugin.fromClass(
  class {
    decorations: DecorationSet;
    constructor(view: EditorView) {
      this.decorations = this.build(view);
    }
    update(update: ViewUpdate): void {
      if (update.docChanged || update.viewportChanged) this.decorations = this.build(update.view);
    }
    build(view: EditorView): DecorationSet {
      const builder = new RangeSetBuilder<Decoration>();
      for (const { from, to } of view.visibleRanges) {
        for (let pos = from; pos <= to; ) {
          const line = view.state.doc.lineAt(pos);
          const indent = /^[ \t]*/.exec(line.text)?.[0].replace(/\t/g, "    ").length ?? 0;
          if (indent > 0) {
            builder.add(
              line.from,
              line.from,
              Decoration.line({ class: "lk-wrap-indent", attributes: { style: `--lk-indent: ${indent}ch` } }),
            );
          }
          pos = line.to + 1;
        }
      }
      return builder.finish();
    }
  },
  { decorations: (plugin) => plugin.decorations },
);

export function createEditor(parent: HTMLElement, options: EditorOptions): CellEditor {
  const run = (): boolean => {
    options.onRun();
    return true;
  };
  const hint = document.createElement("p");
  hint.className = "lk-editor__hint";
  hint.id = `lk-editor-hint-${++hints}`;
  const keys = document.createElement("span");
  keys.className = "lk-hint--keys";
  const touch = document.createElement("span");
  touch.className = "lk-hint--touch";
  touch.textContent = TOUCH_HINT;
  hint.append(keys, touch);
  /** Tab moves focus (true) or indents (false). */
  let tabMoves = true;
  const setTabMoves = (view: EditorView, value: boolean): void => {
    tabMoves = value;
    view.setTabFocusMode(value);
    keys.textContent = value ? HINT.moves : HINT.indents;
    hint.dataset["tab"] = value ? "moves" : "indents";
  };
  // Predictions (a later feature) show code read-only until answered.
  const readOnly = new Compartment();
  const languageSlot = new Compartment();
  const label = new Compartment();
  const labelled = (name: string): Extension =>
    EditorView.contentAttributes.of({ "aria-label": `${name}-Code von ${options.label}` });
  const first = languageSupport(options.language ?? "python");
  const view = new EditorView({
    parent,
    state: EditorState.create({
      doc: options.code,
      extensions: [
        lineNumbers(),
        history(),
        drawSelection(),
        indentOnInput(),
        bracketMatching(),
        highlightActiveLine(),
        EditorView.lineWrapping,
        hangingIndent,
        languageSlot.of(first.extensions),
        lintGutter(),
        syntaxHighlighting(classHighlighter),
        keymap.of([
          { key: "Shift-Enter", run },
          { key: "Mod-Enter", run },
          { key: "Ctrl-m", mac: "Shift-Alt-m", run: (target) => (setTabMoves(target, !tabMoves), true) },
          ...defaultKeymap,
          ...historyKeymap,
          indentWithTab,
        ]),
        label.of(labelled(first.name)),
        EditorView.contentAttributes.of({
          "aria-describedby": hint.id,
          // In the tab order anyway (contenteditable); said explicitly, axe counts the
          // editor as keyboard access to its box if it ever scrolls.
          tabindex: "0",
        }),
        EditorView.updateListener.of((update) => {
          if (!update.docChanged) return;
          // Typing means writing code: from now on Tab indents (Esc, then Tab leaves).
          if (tabMoves && update.transactions.some((tr) => tr.isUserEvent("input") || tr.isUserEvent("delete"))) {
            setTabMoves(update.view, false);
          }
          options.onChange(update.state.doc.toString());
        }),
        readOnly.of(EditorState.readOnly.of(options.readOnly ?? false)),
      ],
    }),
  });
  setTabMoves(view, true);
  parent.append(hint);
  return {
    getCode: () => view.state.doc.toString(),
    setCode: (code) => view.dispatch({ changes: { from: 0, to: view.state.doc.length, insert: code } }),
    setReadOnly: (value) => view.dispatch({ effects: readOnly.reconfigure(EditorState.readOnly.of(value)) }),
    setLanguage: (language, code) => {
      const support = languageSupport(language);
      view.dispatch({
        changes: { from: 0, to: view.state.doc.length, insert: code },
        effects: [languageSlot.reconfigure(support.extensions), label.reconfigure(labelled(support.name))],
      });
      view.dispatch(setDiagnostics(view.state, []));
    },
    showProblems: (problems) => view.dispatch(setDiagnostics(view.state, problems.map((p) => atLine(view, p)))),
    focus: () => view.focus(),
  };
}

/** A problem as CodeMirror's lint marks it: from its column (or the line's first
 * non-blank character) to the line's end; a line past the end marks the last one. */
function atLine(view: EditorView, problem: LineProblem): Diagnostic {
  const doc = view.state.doc;
  const line = doc.line(Math.min(Math.max(problem.line, 1), doc.lines));
  const indent = /^\s*/.exec(line.text)?.[0].length ?? 0;
  const column = problem.column !== undefined ? Math.min(Math.max(problem.column - 1, 0), line.length) : indent;
  return { from: line.from + column, to: line.to, severity: "error", message: problem.message };
}
