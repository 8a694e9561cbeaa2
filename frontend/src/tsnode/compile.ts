// Compiles a reader's TypeScript node to JavaScript the runtime steps deterministically:
// TypeScript's own compiler (typescript-js, 6.x, the last one written in JavaScript) at target
// ES2016, so `async`/`await` becomes a generator driven by `__awaiter` — with `noEmitHelpers`
// the runtime's own `__awaiter` (runtime.ts), which steps it synchronously on the cluster's
// futures, never on the JavaScript event loop. One transformer, in the same compile step:
//  - `await x` becomes `await __warte(x, line)`: only the runtime's futures may be awaited;
//  - every loop's body and every function's body starts with `__schritt(line)`: the loop
//    budget, as pysim/cluster/grenze.py gives a Python node.
import * as ts from "typescript-js";
import { decodeMappings, type LineMap } from "./sourcemap";

export interface Compiled {
  js: string;
  className: string;
  lines: LineMap;
  source: string[];
}

export class CompileError extends Error {
  constructor(
    message: string,
    readonly line: number | null,
  ) {
    super(message);
  }
}

const FILE = "knoten.ts";

export function compileNode(code: string): Compiled {
  const sourceFile = ts.createSourceFile(FILE, code, ts.ScriptTarget.ES2022, true);
  const className = nodeClass(sourceFile);
  const output = ts.transpileModule(code, {
    fileName: FILE,
    reportDiagnostics: true,
    compilerOptions: {
      target: ts.ScriptTarget.ES2016,
      module: ts.ModuleKind.CommonJS,
      noEmitHelpers: true,
      importHelpers: false,
      sourceMap: true,
      inlineSources: false,
      removeComments: true,
    },
    transformers: { before: [budgetAndAwait] },
  });
  const syntax = output.diagnostics?.find((d) => d.category === ts.DiagnosticCategory.Error);
  if (syntax) {
    const line =
      syntax.file && syntax.start !== undefined
        ? syntax.file.getLineAndCharacterOfPosition(syntax.start).line + 1
        : null;
    throw new CompileError(
      `Zeile ${line ?? "?"}: ${ts.flattenDiagnosticMessageText(syntax.messageText, "\n")}`,
      line,
    );
  }
  const map = JSON.parse(output.sourceMapText ?? '{"mappings":""}') as { mappings: string };
  const js = output.outputText.replace(/\/\/# sourceMappingURL=.*$/m, "");
  return { js, className, lines: decodeMappings(map.mappings), source: code.split("\n") };
}

/** The class that runs: the one top-level class that extends Node (or another of the code's
 * node classes); of several, the one marked `export`. German errors say what to write. */
function nodeClass(file: ts.SourceFile): string {
  const nodes = new Set<string>(["Node"]);
  const found: ts.ClassDeclaration[] = [];
  let grew = true;
  while (grew) {
    grew = false;
    for (const statement of file.statements) {
      if (!ts.isClassDeclaration(statement) || !statement.name) continue;
      if (nodes.has(statement.name.text)) continue;
      const base = statement.heritageClauses
        ?.find((clause) => clause.token === ts.SyntaxKind.ExtendsKeyword)
        ?.types[0]?.expression;
      if (base && ts.isIdentifier(base) && nodes.has(base.text)) {
        nodes.add(statement.name.text);
        found.push(statement);
        grew = true;
      }
    }
  }
  if (found.length === 0) {
    throw new CompileError(
      "Dein Code definiert keinen Knoten: Schreib eine Klasse, die von Node erbt, z. B. " +
        "„class MeinKnoten extends Node { … }“.",
      null,
    );
  }
  if (found.length === 1) return found[0]!.name!.text;
  const exported = found.filter((c) =>
    c.modifiers?.some((m) => m.kind === ts.SyntaxKind.ExportKeyword),
  );
  if (exported.length === 1) return exported[0]!.name!.text;
  const names = found.map((c) => c.name!.text).join(", ");
  throw new CompileError(
    `Dein Code definiert mehrere Knoten (${names}). Sag, welcher laufen soll: Schreib ` +
      `„export“ vor genau eine dieser Klassen („export class ${found[found.length - 1]!.name!.text} …“).`,
    null,
  );
}

const budgetAndAwait: ts.TransformerFactory<ts.SourceFile> = (context) => {
  const f = context.factory;
  return (file) => {
    const lineOf = (node: ts.Node): number =>
      file.getLineAndCharacterOfPosition(node.getStart(file)).line + 1;
    const check = (line: number): ts.Statement =>
      f.createExpressionStatement(
        f.createCallExpression(f.createIdentifier("__schritt"), undefined, [
          f.createNumericLiteral(line),
        ]),
      );
    const withCheck = (body: ts.Statement, line: number): ts.Block =>
      f.createBlock([check(line), ...(ts.isBlock(body) ? body.statements : [body])], true);
    const functionBody = (body: ts.ConciseBody, line: number): ts.Block =>
      ts.isBlock(body)
        ? f.updateBlock(body, [check(line), ...body.statements])
        : f.createBlock([check(line), f.createReturnStatement(body)], true);

    const visit = (node: ts.Node): ts.Node => {
      const line = node.pos >= 0 && node.end <= file.end ? lineOf(node) : 0;
      const v = ts.visitEachChild(node, visit, context);
      if (ts.isAwaitExpression(node) && ts.isAwaitExpression(v)) {
        return f.updateAwaitExpression(
          v,
          f.createCallExpression(f.createIdentifier("__warte"), undefined, [
            v.expression,
            f.createNumericLiteral(line),
          ]),
        );
      }
      if (ts.isForStatement(v)) {
        return f.updateForStatement(v, v.initializer, v.condition, v.incrementor, withCheck(v.statement, line));
      }
      if (ts.isForOfStatement(v)) {
        return f.updateForOfStatement(v, v.awaitModifier, v.initializer, v.expression, withCheck(v.statement, line));
      }
      if (ts.isForInStatement(v)) {
        return f.updateForInStatement(v, v.initializer, v.expression, withCheck(v.statement, line));
      }
      if (ts.isWhileStatement(v)) {
        return f.updateWhileStatement(v, v.expression, withCheck(v.statement, line));
      }
      if (ts.isDoStatement(v)) {
        return f.updateDoStatement(v, withCheck(v.statement, line), v.expression);
      }
      if (ts.isMethodDeclaration(v) && v.body) {
        return f.updateMethodDeclaration(
          v, v.modifiers, v.asteriskToken, v.name, v.questionToken, v.typeParameters,
          v.parameters, v.type, functionBody(v.body, line),
        );
      }
      if (ts.isFunctionDeclaration(v) && v.body) {
        return f.updateFunctionDeclaration(
          v, v.modifiers, v.asteriskToken, v.name, v.typeParameters, v.parameters, v.type,
          functionBody(v.body, line),
        );
      }
      if (ts.isFunctionExpression(v)) {
        return f.updateFunctionExpression(
          v, v.modifiers, v.asteriskToken, v.name, v.typeParameters, v.parameters, v.type,
          functionBody(v.body, line),
        );
      }
      if (ts.isArrowFunction(v)) {
        return f.updateArrowFunction(
          v, v.modifiers, v.typeParameters, v.parameters, v.type, v.equalsGreaterThanToken,
          functionBody(v.body, line),
        );
      }
      return v;
    };
    return ts.visitEachChild(file, visit, context);
  };
};
