import assert from "node:assert/strict";
import { test } from "node:test";
import { codeParts, judgeQuiz, revealDue, triesNote, wrongVerdict } from "../src/components/exercise/attempts";

test("a right quiz answer is correct and says nothing is wrong", () => {
  assert.deepEqual(judgeQuiz([1], [1]), { correct: true, wrongChosen: [], missing: 0, detail: "" });
  assert.equal(judgeQuiz([2, 0], [0, 2]).correct, true);
});

test("a wrong single choice names no other option", () => {
  const judged = judgeQuiz([0], [1]);
  assert.equal(judged.correct, false);
  assert.deepEqual(judged.wrongChosen, [0]);
  assert.equal(judged.detail, "Diese Antwort stimmt nicht. Versuch eine andere.");
});

test("a wrong multiple choice counts what is wrong and what is missing, not which", () => {
  assert.equal(judgeQuiz([0, 3], [1, 2, 3]).detail, "1 deiner Antworten stimmt nicht, und 2 richtige fehlen noch.");
  assert.equal(judgeQuiz([0, 1, 2], [1, 2]).detail, "1 deiner Antworten stimmt nicht.");
  assert.equal(judgeQuiz([0, 4, 1], [1, 2]).detail, "2 deiner Antworten stimmen nicht, und 1 richtige fehlt noch.");
  assert.equal(judgeQuiz([1], [1, 2]).detail, "Was du gewählt hast, stimmt, aber 1 richtige fehlt noch.");
  assert.deepEqual(judgeQuiz([0, 4, 1], [1, 2]).wrongChosen, [0, 4]);
  assert.equal(judgeQuiz([0, 4, 1], [1, 2]).missing, 1);
});

test("from the second try on the verdict says which try it is", () => {
  assert.equal(wrongVerdict("Der Wert stimmt nicht.", 1), "Noch nicht: Der Wert stimmt nicht.");
  assert.equal(wrongVerdict("Der Wert stimmt nicht.", 3), "Noch nicht (3. Versuch): Der Wert stimmt nicht.");
});

test("the solution shows by itself only when the author set a number of tries", () => {
  assert.equal(revealDue(5, null), false);
  assert.equal(revealDue(1, 2), false);
  assert.equal(revealDue(2, 2), true);
  assert.equal(revealDue(3, 2), true);
  assert.equal(triesNote(4, null), "");
  assert.equal(triesNote(1, 3), "Noch 2 Versuche, dann erscheint die Lösung.");
  assert.equal(triesNote(2, 3), "Noch 1 Versuch, dann erscheint die Lösung.");
  assert.equal(triesNote(3, 3), "Nach 3 Versuchen steht die Lösung unten.");
  assert.equal(triesNote(1, 1), "Nach 1 Versuch steht die Lösung unten.");
});

test("a note's backticks become code parts", () => {
  assert.deepEqual(codeParts("In Python: `True`, nicht `true`."), [
    { code: false, text: "In Python: " },
    { code: true, text: "True" },
    { code: false, text: ", nicht " },
    { code: true, text: "true" },
    { code: false, text: "." },
  ]);
  assert.deepEqual(codeParts("ohne Code"), [{ code: false, text: "ohne Code" }]);
});
