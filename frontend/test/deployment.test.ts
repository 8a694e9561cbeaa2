import assert from "node:assert/strict";
import { test } from "node:test";
import { cssVersion, parseStaleNote, RELOAD_MEMORY_MS, staleAction, staleFile } from "../src/runtime/deployment";

const A = "0123456789abcdef";
const B = "fedcba9876543210";

test("a file of another deployment than the page is named; files without a version say nothing", () => {
  assert.equal(staleFile(A, { "lessonkit.js": A, "lessonkit.css": A }), null);
  assert.equal(staleFile(A, { "lessonkit.js": A, "lessonkit.css": B }), "lessonkit.css");
  assert.equal(staleFile(A, { "lessonkit.js": B, "lessonkit.css": B }), "lessonkit.js");
  assert.equal(staleFile(A, { "lessonkit.js": A, "lessonkit.css": null }), null); // no stylesheet
  // A page the build's last step never stamped (mkdocs serve) compares nothing.
  assert.equal(staleFile("", { "lessonkit.js": B }), null);
  assert.equal(staleFile(null, { worker: B }), null);
});

test("the stylesheet's version is read from its custom property, quoted or not", () => {
  assert.equal(cssVersion(` "${A}"`), A);
  assert.equal(cssVersion(`'${A}'`), A);
  assert.equal(cssVersion(A), A);
  assert.equal(cssVersion(""), null);
  assert.equal(cssVersion('"nicht-hex"'), null);
});

test("reload once; the same mismatch right after a reload stops instead of looping", () => {
  const now = 1_000_000;
  assert.equal(staleAction(null, `${A}→lessonkit.js`, now), "reload");
  const note = { mismatch: `${A}→lessonkit.js`, at: now - 2000 };
  assert.equal(staleAction(note, `${A}→lessonkit.js`, now), "stop");
  // Another mismatch (a further deployment) or a note from long ago: reload again.
  assert.equal(staleAction(note, `${B}→lessonkit.js`, now), "reload");
  assert.equal(staleAction(note, `${A}→lessonkit.js`, now + RELOAD_MEMORY_MS), "reload");
  // A clock that went back does not keep the page stopped for ever.
  assert.equal(staleAction({ ...note, at: now + 5000 }, `${A}→lessonkit.js`, now), "reload");
});

test("a stored note is read only in the shape it is written", () => {
  assert.deepEqual(parseStaleNote(JSON.stringify({ mismatch: "x", at: 5 })), { mismatch: "x", at: 5 });
  for (const text of [null, "", "{", "[]", "null", JSON.stringify({ mismatch: 1, at: 5 })]) {
    assert.equal(parseStaleNote(text), null, String(text));
  }
});
