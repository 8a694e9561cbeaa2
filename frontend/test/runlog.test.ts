import "./fakes";
import assert from "node:assert/strict";
import { test } from "node:test";
import {
  EMPTY_LOG,
  involves,
  leftOutMessages,
  logLineParts,
  MAX_LINE_CHARS,
  messageHead,
  messageNodes,
  shownCount,
  shownText,
} from "../src/components/exercise/runlog";
import type { RunMessage } from "../src/generated/contract";

test("a log line names its tick and node; a note says so; the gap line says only itself", () => {
  assert.deepEqual(logLineParts({ zeit: 12, knoten: "n2", art: "ausgabe", text: "Token 3" }), {
    tick: "t=12",
    node: "n2",
    kind: "",
    text: "Token 3",
    leftOut: false,
  });
  assert.equal(logLineParts({ zeit: 4, knoten: "n1", art: "notiz", text: "Lease" }).kind, "Notiz");
  const gap = logLineParts({ zeit: 9, knoten: "", art: "ausgelassen", text: "… 5 Zeilen ausgelassen" });
  assert.deepEqual([gap.tick, gap.node, gap.leftOut], ["", "", true]);
  assert.ok(EMPTY_LOG.includes("print"));
});

test("text from the reader's node is cut and shows direction switches as code points", () => {
  const long = logLineParts({ zeit: 0, knoten: "n1", art: "ausgabe", text: "x".repeat(10_000) }).text;
  assert.ok(long.length < MAX_LINE_CHARS + 20 && long.endsWith("… (gekürzt)"));
  assert.equal(shownText("a\u202eb", 10), "a<U+202E>b");
  assert.equal(shownText("<b>fett</b>", 100), "<b>fett</b>", "markup stays text (set with textContent)");
});

const message = (von: string, an: string, ankunft: number | null = 3): RunMessage => ({
  gesendet: 1,
  ankunft,
  von,
  an,
  schicksal: ankunft === null ? "verloren im Netz" : "angekommen",
  inhalt: '{"type": "acquire_ok", "token": 4}',
});

test("a message reads from, to, when and what became of it", () => {
  assert.equal(messageHead(message("lease", "n1")), "lease → n1 · t=1 → t=3 · angekommen");
  assert.equal(messageHead(message("n1", "n2", null)), "n1 → n2 · t=1 · verloren im Netz");
});

test("the filter lists services, nodes by number, then clients, and narrows to one", () => {
  const messages = [message("c10", "n10"), message("n2", "lease"), message("c2", "n2"), message("n10", "fence-kv")];
  assert.deepEqual(messageNodes(messages), ["fence-kv", "lease", "n2", "n10", "c2", "c10"]);
  assert.deepEqual(
    messages.filter((m) => involves(m, "n2")).map((m) => `${m.von}>${m.an}`),
    ["n2>lease", "c2>n2"],
  );
  assert.equal(messages.filter((m) => involves(m, "")).length, 4);
  assert.equal(shownCount(2, 4), "2 von 4 Nachrichten");
  assert.equal(shownCount(1, 1), "1 Nachricht");
  assert.equal(shownCount(1200, 1200), "1.200 Nachrichten");
});

test("messages neither the picture nor the list shows are counted", () => {
  assert.equal(leftOutMessages(0), "");
  assert.equal(leftOutMessages(1), "Eine weitere Nachricht des Laufs steht weder im Bild noch in dieser Liste.");
  assert.ok(leftOutMessages(1234).startsWith("1.234 weitere Nachrichten des Laufs stehen weder"));
});
