import "./fakes";
import assert from "node:assert/strict";
import { test } from "node:test";
import {
  cappedOutcome,
  cut,
  MAX_KENNUNG_CHARS,
  MAX_MESSAGE_CHARS,
  MAX_SENTENCE_CHARS,
  MAX_SENTENCES,
  verdictSentences,
} from "../src/components/exercise/capped";
import { seedOutcome } from "./outcomes";

const outcome = seedOutcome({
  urteil: ["Ein Handler warf: t=2: n1 warf bei „echo“ von c1 ValueError: " + "x".repeat(5_000_000) + "."],
  kennung: "echo/k3/s1/d100//o0",
  operationen: 1,
  operationen_vorher: 117,
});

test("a text within the cap stays as it is", () => {
  assert.equal(cut("kurz", 10), "kurz");
  assert.equal(cut("x".repeat(10), 10), "x".repeat(10));
});

test("a long text is cut with a German note of how much went", () => {
  assert.equal(cut("abcdefghij", 4), "abcd… (6 Zeichen mehr, gekürzt)");
  const long = cut("x".repeat(5_000_000), MAX_MESSAGE_CHARS);
  assert.ok(long.length < MAX_MESSAGE_CHARS + 60, String(long.length));
  assert.ok(long.endsWith("x… (4.989.000 Zeichen mehr, gekürzt)"), long.slice(-60));
});

test("a cut never splits a character outside the Basic Multilingual Plane", () => {
  const text = "ab😀cd"; // the emoji is two UTF-16 code units, at 2 and 3
  assert.equal(cut(text, 3), "ab… (4 Zeichen mehr, gekürzt)");
  assert.equal(cut(text, 4), "ab😀… (2 Zeichen mehr, gekürzt)");
});

test("anything but a string reads as empty", () => {
  assert.equal(cut(undefined, 5), "");
  assert.equal(cut(12, 5), "");
});

test("a verdict's sentences are cut each and counted beyond the cap", () => {
  const many = Array.from({ length: MAX_SENTENCES + 5 }, (_, i) => `Satz ${i}.`);
  const shown = verdictSentences(many);
  assert.equal(shown.length, MAX_SENTENCES + 1);
  assert.equal(shown.at(-1), "… und 5 weitere Sätze des Urteils, gekürzt.");
  assert.equal(verdictSentences([...many.slice(0, MAX_SENTENCES), "noch einer"]).at(-1), "… und 1 weiterer Satz des Urteils, gekürzt.");
  assert.deepEqual(verdictSentences("kein Array"), []);
  assert.deepEqual(verdictSentences(["a", 3, null, "b"]), ["a", "b"]);
});

test("a seed's outcome comes to the page with every text cut, direction switches visible", () => {
  const capped = cappedOutcome({
    ...outcome,
    error: "Fehler \u202e" + "y".repeat(2_000_000),
    kennung: "echo/k3/s1/d100/" + "1:heile;".repeat(1_000),
  });
  const [sentence] = capped.urteil;
  assert.ok(sentence !== undefined && sentence.length < MAX_SENTENCE_CHARS + 60, String(sentence?.length));
  assert.ok(sentence.startsWith("Ein Handler warf: t=2: n1 warf bei „echo“ von c1 ValueError: xxx"));
  assert.ok(sentence.endsWith("Zeichen mehr, gekürzt)"));
  assert.ok(capped.error !== null && capped.error.startsWith("Fehler <U+202E>yyy"));
  assert.ok(capped.error.length < MAX_MESSAGE_CHARS + 60);
  assert.ok(capped.kennung.length < MAX_KENNUNG_CHARS + 60);
  assert.equal(cappedOutcome(outcome).seed, 1);
  assert.equal(cappedOutcome({ ...outcome, error: null }).error, null);
});
