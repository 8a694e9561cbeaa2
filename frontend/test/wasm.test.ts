// serveWasmFromZstd (worker/wasm.ts): Pyodide's request for its WebAssembly answered from
// the Zstandard copy, decoded as it is read; the plain file when the copy fails.
import assert from "node:assert/strict";
import { test } from "node:test";
import { execFileSync } from "node:child_process";
import { serveWasmFromZstd } from "../src/worker/wasm";
import { inflatingStream, zstdDecoder } from "../src/worker/zstd";

const WASM = new URL("https://kurs.example/assets/generated/pyodide/pyodide.asm.wasm");
const COPY = new URL("https://kurs.example/assets/generated/pyodide/pyodide.asm.wasm.zst");

/** A module of one exported function (`answer` → 42), padded with a custom section. */
function module(padding: number): Uint8Array {
  const custom = [0x00, ...leb(padding + 2), 0x01, 0x70, ...new Array<number>(padding).fill(7)];
  return new Uint8Array([
    ...[0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00],
    ...[0x01, 0x05, 0x01, 0x60, 0x00, 0x01, 0x7f], // type: () -> i32
    ...[0x03, 0x02, 0x01, 0x00], // function 0 has type 0
    ...[0x07, 0x0a, 0x01, 0x06, ...Buffer.from("answer"), 0x00, 0x00], // export
    ...[0x0a, 0x06, 0x01, 0x04, 0x00, 0x41, 0x2a, 0x0b], // body: i32.const 42
    ...custom,
  ]);
}

function leb(value: number): number[] {
  const bytes: number[] = [];
  do {
    let byte = value & 0x7f;
    value >>>= 7;
    if (value) byte |= 0x80;
    bytes.push(byte);
  } while (value);
  return bytes;
}

/** zstd -19 of `bytes` by the build's own Python and library (lessonkit/assets.py). */
function zstd(bytes: Uint8Array): Uint8Array {
  const code = "import sys, zstandard; sys.stdout.buffer.write(zstandard.ZstdCompressor(level=19, write_content_size=True).compress(sys.stdin.buffer.read()))";
  return new Uint8Array(execFileSync(process.env.LK_PYTHON ?? ".venv/bin/python", ["-c", code], { input: bytes }));
}

type Served = Record<string, Uint8Array | number>;

/** A scope whose `fetch` serves `files` (a number: that HTTP status) and logs requests. */
function scope(files: Served): { fetch: typeof fetch; asked: string[] } {
  const asked: string[] = [];
  const fetcher = async (input: RequestInfo | URL): Promise<Response> => {
    const url = String(input instanceof Request ? input.url : input);
    asked.push(new URL(url).pathname.split("/").pop() ?? url);
    const file = files[url];
    if (file === undefined || typeof file === "number") return new Response("", { status: file ?? 404 });
    return new Response(file.slice(), { headers: { "Content-Type": "application/octet-stream" } });
  };
  return { fetch: fetcher as typeof fetch, asked };
}

test("the request for the WebAssembly gets the copy's decoded bytes, which compile streaming", async () => {
  const wasm = module(400_000); // several of the decoder's 128 kB pieces
  const served = scope({ [COPY.href]: zstd(wasm), [WASM.href]: 404 });
  serveWasmFromZstd(served, WASM, COPY);
  const response = await served.fetch(WASM);
  assert.equal(response.headers.get("Content-Type"), "application/wasm");
  const { instance } = await WebAssembly.instantiateStreaming(response, {});
  assert.equal((instance.exports.answer as () => number)(), 42);
  assert.deepEqual(served.asked, ["pyodide.asm.wasm.zst"]);
});

test("other requests pass through unchanged", async () => {
  const other = new URL("pyodide.asm.mjs", WASM);
  const served = scope({ [other.href]: new Uint8Array([1, 2, 3]) });
  serveWasmFromZstd(served, WASM, COPY);
  assert.deepEqual(new Uint8Array(await (await served.fetch(other)).arrayBuffer()), new Uint8Array([1, 2, 3]));
  assert.deepEqual(served.asked, ["pyodide.asm.mjs"]);
});

test("a missing copy falls back to the plain file", async () => {
  const wasm = module(10);
  const served = scope({ [COPY.href]: 404, [WASM.href]: wasm });
  serveWasmFromZstd(served, WASM, COPY);
  const bytes = new Uint8Array(await (await served.fetch(WASM.href)).arrayBuffer());
  assert.deepEqual(bytes, wasm);
  assert.deepEqual(served.asked, ["pyodide.asm.wasm.zst", "pyodide.asm.wasm"]);
});

test("a damaged copy ends its stream with an error, and the next request takes the plain file", async () => {
  const wasm = module(300_000);
  const damaged = zstd(wasm);
  damaged.fill(0xff, 40, damaged.length);
  const served = scope({ [COPY.href]: damaged, [WASM.href]: wasm });
  serveWasmFromZstd(served, WASM, COPY);
  await assert.rejects((await served.fetch(WASM)).arrayBuffer());
  const again = new Uint8Array(await (await served.fetch(WASM)).arrayBuffer());
  assert.deepEqual(again, wasm);
  assert.deepEqual(served.asked, ["pyodide.asm.wasm.zst", "pyodide.asm.wasm"]);
});

test("the stream inflates to exactly the original bytes", async () => {
  const original = new Uint8Array(1_000_000).map((_, index) => (index * 7919) % 251);
  const stream = inflatingStream(await zstdDecoder(), zstd(original));
  assert.deepEqual(new Uint8Array(await new Response(stream).arrayBuffer()), original);
});
