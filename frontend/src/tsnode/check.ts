// Type-checks a reader's node (strict) against the runtime's declarations (reader/knoten.d.ts)
// with TypeScript's JavaScript compiler, its diagnostics in German. Where the standard
// library's declarations come from is the caller's (Node reads them from node_modules; the
// browser will get them with the lazily loaded compiler).
import * as ts from "typescript-js";
import type { Diagnostic } from "./protocol";

export interface CheckEnvironment {
  /** A file of TypeScript's lib folder by name (`lib.es2022.d.ts`), or undefined. */
  readLib(name: string): string | undefined;
  /** The reader's declarations (reader/knoten.d.ts). */
  declarations: string;
}

const READER = "/knoten.ts";
const DECLARATIONS = "/knoten-api.d.ts";

export const CHECK_OPTIONS: ts.CompilerOptions = {
  strict: true,
  target: ts.ScriptTarget.ES2022,
  lib: ["lib.es2022.d.ts"],
  types: [],
  noEmit: true,
  noImplicitOverride: false,
  skipLibCheck: true,
};

let german = false;

/** Diagnostics in German from now on (TypeScript's lib/de messages). */
export function useGerman(messages: object): void {
  if (german) return;
  (ts as unknown as { setLocalizedDiagnosticMessages(m: object): void }).setLocalizedDiagnosticMessages(messages);
  german = true;
}

const cache = new Map<string, ts.SourceFile>();

export function checkNode(code: string, env: CheckEnvironment): Diagnostic[] {
  const files = new Map<string, string>([
    [READER, code],
    [DECLARATIONS, env.declarations],
  ]);
  const read = (name: string): string | undefined => {
    const own = files.get(name);
    if (own !== undefined) return own;
    const base = name.slice(name.lastIndexOf("/") + 1);
    return env.readLib(base);
  };
  const host: ts.CompilerHost = {
    getSourceFile(name, version) {
      const text = read(name);
      if (text === undefined) return undefined;
      if (files.has(name)) return ts.createSourceFile(name, text, version, true);
      let file = cache.get(name);
      if (file === undefined) {
        file = ts.createSourceFile(name, text, version, true);
        cache.set(name, file);
      }
      return file;
    },
    getDefaultLibFileName: () => "/lib/lib.es2022.d.ts",
    getDefaultLibLocation: () => "/lib",
    writeFile: () => undefined,
    getCurrentDirectory: () => "/",
    getCanonicalFileName: (name) => name,
    useCaseSensitiveFileNames: () => true,
    getNewLine: () => "\n",
    fileExists: (name) => read(name) !== undefined,
    readFile: read,
  };
  const program = ts.createProgram([READER, DECLARATIONS], CHECK_OPTIONS, host);
  const diagnostics = [
    ...program.getSyntacticDiagnostics(),
    ...program.getSemanticDiagnostics(),
    ...program.getGlobalDiagnostics(),
  ];
  return diagnostics
    .filter((d) => d.category === ts.DiagnosticCategory.Error)
    .map((d) => {
      const where =
        d.file && d.start !== undefined ? d.file.getLineAndCharacterOfPosition(d.start) : null;
      const inReader = d.file?.fileName === READER;
      return {
        line: where && inReader ? where.line + 1 : 0,
        column: where && inReader ? where.character + 1 : 0,
        code: d.code,
        message: ts.flattenDiagnosticMessageText(d.messageText, "\n"),
      };
    });
}
