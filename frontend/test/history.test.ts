import assert from "node:assert/strict";
import { test } from "node:test";
import { commonPrefix, History } from "../src/components/console/history";

test("↑ goes back through the commands, ↓ returns to the draft", () => {
  const history = new History();
  history.push("produce a 1");
  history.push("poll g");
  assert.equal(history.back("halb getippt"), "poll g");
  assert.equal(history.back("poll g"), "produce a 1");
  assert.equal(history.back("produce a 1"), null);
  assert.equal(history.forward(), "poll g");
  assert.equal(history.forward(), "halb getippt");
  assert.equal(history.forward(), null);
});

test("empty lines and repeats in a row are not remembered", () => {
  const history = new History();
  for (const command of ["poll g", "poll g", "  ", "commit g", "poll g"]) history.push(command);
  const seen = [history.back(""), history.back(""), history.back(""), history.back("")];
  assert.deepEqual(seen, ["poll g", "commit g", "poll g", null]);
});

test("a new command starts the way back at the newest again", () => {
  const history = new History();
  history.push("a");
  history.push("b");
  history.back("");
  history.back("");
  history.push("c");
  assert.equal(history.back(""), "c");
});

test("completion offers the common prefix of the candidates", () => {
  assert.equal(commonPrefix(["produce", "produziere", "poll"]), "p");
  assert.equal(commonPrefix(["commit", "commit-all"]), "commit");
  assert.equal(commonPrefix(["one"]), "one");
  assert.equal(commonPrefix([]), "");
});
