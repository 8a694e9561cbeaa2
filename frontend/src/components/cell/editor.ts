/**
 * The code editor of a cell: CodeMirror 6 with Python support.
 *
 * Loaded on demand (a separate chunk), so pages without cells never download
 * it. Colours come from Material's code-highlight CSS variables through
 * CodeMirror's class highlighter, so the editor follows the light/dark palette.
 */
import { defaultKeymap, history, historyKeymap, indentWithTab } from "@codemirror/commands";
import { python } from "@codemirror/lang-python";
import { bracketMatching, indentOnInput, indentUnit, syntaxHighlighting } from "@codemirror/language";
import { Compartment, EditorState } from "@codemirror/state";
import { EditorView, drawSelection, highlightActiveLine, keymap, lineNumbers } from "@codemirror/view";
import { classHighlighter } from "@lezer/highlight";

export interface EditorOptions {
  code: string;
  label: string;
  readOnly?: boolean;
  onRun: () => void;
  onEscape: () => void;
  onChange: (code: string) => void;
}

export interface CellEditor {
  getCode(): string;
  setCode(code: string): void;
  setReadOnly(readOnly: boolean): void;
  focus(): void;
}

export function createEditor(parent: HTMLElement, options: EditorOptions): CellEditor {
  const run = (): boolean => {
    options.onRun();
    return true;
  };
  // Predictions (a later feature) show code read-only until answered.
  const readOnly = new Compartment();
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
        indentUnit.of("    "),
        python(),
        syntaxHighlighting(classHighlighter),
        keymap.of([
          { key: "Shift-Enter", run },
          { key: "Mod-Enter", run },
          { key: "Escape", run: () => (options.onEscape(), true) },
          ...defaultKeymap,
          ...historyKeymap,
          indentWithTab,
        ]),
        EditorView.contentAttributes.of({ "aria-label": `Python-Code von ${options.label}` }),
        EditorView.updateListener.of((update) => {
          if (update.docChanged) options.onChange(update.state.doc.toString());
        }),
        readOnly.of(EditorState.readOnly.of(options.readOnly ?? false)),
      ],
    }),
  });
  return {
    getCode: () => view.state.doc.toString(),
    setCode: (code) => view.dispatch({ changes: { from: 0, to: view.state.doc.length, insert: code } }),
    setReadOnly: (value) => view.dispatch({ effects: readOnly.reconfigure(EditorState.readOnly.of(value)) }),
    focus: () => view.focus(),
  };
}
