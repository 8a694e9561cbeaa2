import assert from "node:assert/strict";
import { test } from "node:test";
import { visibleBidi } from "../src/components/bidi";

test("every character that switches the writing direction is written as its code point", () => {
  const all = "\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069";
  assert.equal(
    visibleBidi(all),
    "<U+202A><U+202B><U+202C><U+202D><U+202E><U+2066><U+2067><U+2068><U+2069>",
  );
  assert.equal(visibleBidi('{"name":"\u202egnp.exe"}'), '{"name":"<U+202E>gnp.exe"}');
});

test("other text stays as it is, right-to-left script and direction marks included", () => {
  // U+200E/U+200F (marks) and U+2029 lie beside the range: they switch nothing for the rest.
  const text = "hallo ä שלום مرحبا \u200e\u200f\u2029\u2065\u206a <U+202E> \t\n";
  assert.equal(visibleBidi(text), text);
  assert.equal(visibleBidi(""), "");
});
