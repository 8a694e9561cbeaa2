import assert from "node:assert/strict";
import { test } from "node:test";
import { checkMessage, MAX_CHUNK_CHARS } from "../src/runtime/incoming";

const RESULT = { output: [["stdout", "1\n"]], value: "3", svg: null, error: null, error_type: null, truncated: false };

test("the protocol's messages pass as they are", () => {
  for (const message of [
    { type: "ready", seconds: 0.5, stages: { boot: 1 } },
    { type: "progress", phase: "download", loaded: 10, total: 0 },
    { type: "chunk", id: 3, stream: "stderr", text: "x" },
    { type: "chunks", id: 3, parts: [["stdout", "a"], ["stderr", "b"]] },
    { type: "result", id: 3, result: RESULT },
    { type: "value", id: 4, value: { ok: true } },
    { type: "failed", id: null, message: "kaputt" },
    { type: "dead", message: "weg" },
    { type: "exhausted" },
  ]) {
    assert.deepEqual(checkMessage(message), message);
  }
});

test("forged or broken messages are dropped", () => {
  for (const message of [
    null,
    "chunk",
    [],
    { type: "toast", text: "Systemmeldung" },
    { type: "chunk", id: 3, stream: "md-toast", text: "Systemmeldung" },
    { type: "chunk", id: "3", stream: "stdout", text: "x" },
    { type: "chunk", id: 3, stream: "stdout", text: 5 },
    { type: "chunks", id: 3, parts: [["stdout", "a"], ["md-toast", "b"]] },
    { type: "chunks", id: 3, parts: [["stdout"]] },
    { type: "chunks", id: 3, parts: "a" },
    { type: "chunks", id: 3, parts: Array.from({ length: MAX_CHUNK_CHARS + 1 }, () => ["stdout", "a"]) },
    { type: "result", id: 3, result: { ...RESULT, output: [["evil", "x"]] } },
    { type: "result", id: 3, result: { ...RESULT, svg: 7 } },
    { type: "progress", phase: "download", loaded: Infinity, total: 0 },
    { type: "failed", id: 1.5, message: "x" },
  ]) {
    assert.equal(checkMessage(message), null, JSON.stringify(message));
  }
});

test("a chunk is cut to what the kernel could send", () => {
  const message = checkMessage({ type: "chunk", id: 1, stream: "stdout", text: "x".repeat(MAX_CHUNK_CHARS * 3) });
  assert.equal(message?.type === "chunk" && message.text.length, MAX_CHUNK_CHARS);
});

test("a batch of chunks is cut to what the kernel could send, in all", () => {
  const parts = Array.from({ length: 5 }, (_, i) => [i % 2 ? "stderr" : "stdout", "x".repeat(MAX_CHUNK_CHARS / 2)]);
  const message = checkMessage({ type: "chunks", id: 1, parts });
  assert.ok(message?.type === "chunks");
  assert.deepEqual(
    message.parts.map(([stream, text]) => [stream, text.length]),
    [
      ["stdout", MAX_CHUNK_CHARS / 2],
      ["stderr", MAX_CHUNK_CHARS / 2],
    ],
  );
});
