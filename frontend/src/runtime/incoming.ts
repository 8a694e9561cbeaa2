/**
 * What arrives from the Python worker, checked before the page uses it.
 *
 * The kernel caps what a run sends (lessonkit/runtime/kernel.py), but the reader's code runs
 * in that worker and can post messages of its own (`js.postMessage`): a 50 MB chunk,
 * a result with a 20 MB picture, a stream name that becomes a CSS class. So the page
 * keeps its own limits, whatever the worker sends: a message of an unknown shape is
 * dropped, a known stream name is required, and the sizes are capped here and where
 * output is drawn (components/output/render.ts).
 */
import type { CellResult, FromWorker } from "./protocol";

/** The streams a chunk may name (they become the class `lk-<stream>`). */
export const STREAMS = new Set(["stdout", "stderr"]);

/** Characters of one chunk: the kernel sends at most MAX_OUTPUT_CHARS (200,000) in all. */
export const MAX_CHUNK_CHARS = 200_000;

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value);
const isId = (value: unknown): value is number => typeof value === "number" && Number.isSafeInteger(value);
const isText = (value: unknown): value is string => typeof value === "string";
const isTextOrNull = (value: unknown): value is string | null => value === null || isText(value);
const isCount = (value: unknown): value is number => typeof value === "number" && Number.isFinite(value) && value >= 0;

function isOutput(value: unknown): value is CellResult["output"] {
  return (
    Array.isArray(value) &&
    value.every((part) => Array.isArray(part) && part.length === 2 && STREAMS.has(part[0] as string) && isText(part[1]))
  );
}

function isCellResult(value: unknown): value is CellResult {
  if (!isObject(value)) return false;
  const { output, value: repr, svg, error, error_type, truncated } = value;
  return (
    isOutput(output) &&
    isTextOrNull(repr) &&
    isTextOrNull(svg) &&
    isTextOrNull(error) &&
    isTextOrNull(error_type) &&
    typeof truncated === "boolean"
  );
}

/** The message, when it has one of the protocol's shapes (runtime/protocol.ts); else null. */
export function checkMessage(data: unknown): FromWorker | null {
  if (!isObject(data)) return null;
  const message = data as FromWorker;
  switch (data["type"]) {
    case "ready":
      return isCount(data["seconds"]) && isObject(data["stages"]) ? message : null;
    case "progress":
      return (data["phase"] === "download" || data["phase"] === "start") &&
        isCount(data["loaded"]) &&
        isCount(data["total"])
        ? message
        : null;
    case "chunk":
      if (!isId(data["id"]) || !STREAMS.has(data["stream"] as string) || !isText(data["text"])) return null;
      return { type: "chunk", id: data["id"], stream: data["stream"] as string, text: data["text"].slice(0, MAX_CHUNK_CHARS) };
    case "chunks": {
      const parts = data["parts"];
      if (!isId(data["id"]) || !Array.isArray(parts) || parts.length > MAX_CHUNK_CHARS) return null;
      // Every stretch holds at least one character: at most MAX_CHUNK_CHARS of them in all.
      let left = MAX_CHUNK_CHARS;
      const kept: [string, string][] = [];
      for (const part of parts) {
        if (!Array.isArray(part) || part.length !== 2 || !STREAMS.has(part[0] as string) || !isText(part[1])) return null;
        if (left <= 0) continue;
        const text = part[1].slice(0, left);
        left -= text.length;
        kept.push([part[0] as string, text]);
      }
      return { type: "chunks", id: data["id"], parts: kept };
    }
    case "result":
      return isId(data["id"]) && isCellResult(data["result"]) ? message : null;
    case "value":
      return isId(data["id"]) ? message : null;
    case "failed":
      return (data["id"] === null || isId(data["id"])) && isText(data["message"]) ? message : null;
    case "dead":
      return isText(data["message"]) ? message : null;
    case "closed":
      return { type: "closed" };
    case "exhausted":
      return { type: "exhausted" };
    default:
      return null;
  }
}
