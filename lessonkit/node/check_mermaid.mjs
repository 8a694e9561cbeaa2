// Parse mermaid diagrams with the site's own mermaid (node_modules), for the build
// (lessonkit/build/diagrams.py). Input (stdin, JSON): ["<diagram>", ...].
// Output (stdout, JSON): [{error, line}, ...]: null for a valid diagram, else mermaid's
// message and the diagram's line it names ("Parse error on line 3").
//
// Parsing needs no DOM, but some diagram types (state, class, gantt, …) register
// DOMPurify hooks while they load; DOMPurify without a window has none. Sanitising
// does not matter for parsing, so those calls do nothing here.
import { readFileSync } from "node:fs";
import DOMPurify from "dompurify";

for (const name of ["addHook", "removeHook", "removeHooks", "removeAllHooks", "setConfig", "clearConfig"]) {
  DOMPurify[name] = () => {};
}
DOMPurify.sanitize = (text) => text;
const { default: mermaid } = await import("mermaid");

const diagrams = JSON.parse(readFileSync(0, "utf8"));
const results = [];
for (const text of diagrams) {
  try {
    await mermaid.parse(text);
    results.push({ error: null, line: null });
  } catch (exc) {
    const message = String(exc?.message ?? exc);
    const match = /on line (\d+)/.exec(message);
    results.push({ error: message, line: match ? Number(match[1]) : null });
  }
}
process.stdout.write(JSON.stringify(results));
