import "./fakes";
import assert from "node:assert/strict";
import { beforeEach, test } from "node:test";
import { FLOOD_MESSAGES } from "../src/runtime/flood";
import type { CellResult, FromWorker, ToWorker } from "../src/runtime/protocol";
import {
  Interrupted,
  type Interruption,
  PythonRuntime,
  type RestartReason,
  type RunOutcome,
  unavailableText,
} from "../src/runtime/python";

/** The page's Python worker, played by the test: it records what it was sent. */
class FakeWorker {
  static made: FakeWorker[] = [];
  readonly sent: ToWorker[] = [];
  terminated = false;
  onmessage: ((event: MessageEvent<FromWorker>) => void) | null = null;
  onerror: ((event: ErrorEvent) => void) | null = null;

  constructor() {
    FakeWorker.made.push(this);
  }

  postMessage(message: ToWorker): void {
    this.sent.push(message);
  }

  terminate(): void {
    this.terminated = true;
  }

  /** The worker says `message`; then the page's promises settle. */
  async say(message: FromWorker): Promise<void> {
    this.onmessage?.({ data: message } as MessageEvent<FromWorker>);
    await settle();
  }

  /** Python finishes the newest run with the value `value`. */
  async finish(value: string): Promise<void> {
    const run = this.sent.filter((message) => message.type === "run").at(-1);
    assert.ok(run?.type === "run", "nothing runs");
    await this.say({ type: "result", id: run.id, result: result(value) });
  }

  runs(): string[] {
    return this.sent.flatMap((message) => (message.type === "run" ? [message.code] : []));
  }
}

(globalThis as Record<string, unknown>)["Worker"] = FakeWorker;

async function settle(): Promise<void> {
  for (let i = 0; i < 20; i++) await Promise.resolve();
}

function result(value: string): CellResult {
  return { output: [], value, svg: null, error: null, error_type: null, truncated: false };
}

const READY: FromWorker = { type: "ready", seconds: 0.5, stages: {} };
const request = (code: string) => ({ session: "main", code, label: "Zelle 1" });

let runtime: PythonRuntime;
let reasons: RestartReason[];
let stoppers: (object | null)[];

beforeEach(() => {
  FakeWorker.made = [];
  runtime = new PythonRuntime(new URL("http://127.0.0.1:8000/kurs/assets/generated/js/worker.js"));
  reasons = [];
  stoppers = [];
  runtime.onRestart((reason, by) => {
    reasons.push(reason);
    stoppers.push(by);
  });
});

/** The value a run ended with (it must have ended with one). */
function valueOf(outcome: RunOutcome): string | null {
  assert.equal(outcome.kind, "done", JSON.stringify(outcome));
  return outcome.kind === "done" ? outcome.result.value : null;
}

function worker(index = 0): FakeWorker {
  const made = FakeWorker.made[index];
  assert.ok(made, `no worker ${index}`);
  return made;
}

/** Python started and ran the page's own (published) cell "1" to its end. */
async function ranPublishedCell(): Promise<void> {
  runtime.publish("1");
  runtime.run(request("1"), () => undefined);
  await settle();
  await worker().say(READY);
  await worker().finish("1");
}

test("runs wait for Python's start, then reach it one after another", async () => {
  const first = runtime.run(request("a = 1"), () => undefined);
  const second = runtime.run(request("a + 1"), () => undefined);
  await settle();
  assert.equal(runtime.state, "loading");
  assert.deepEqual(worker().runs(), []);
  await worker().say(READY);
  assert.deepEqual(worker().runs(), ["a = 1"]);
  await worker().finish("1");
  assert.equal(valueOf(await first), "1");
  assert.deepEqual(worker().runs(), ["a = 1", "a + 1"]);
  await worker().finish("2");
  assert.equal(valueOf(await second), "2");
});

test("output streams into its run's cell, also from a task after the run ended", async () => {
  const chunks: string[] = [];
  const run = runtime.run(request("print(1)"), (_, text) => chunks.push(text));
  await settle();
  await worker().say(READY);
  await worker().say({ type: "chunk", id: 1, stream: "stdout", text: "1\n" });
  await worker().finish("None");
  await run;
  await worker().say({ type: "chunk", id: 1, stream: "stdout", text: "später\n" });
  assert.deepEqual(chunks, ["1\n", "später\n"]);
});

test("a restart fails what runs, starts a new worker and tells the blocks why", async () => {
  const running = runtime.run(request("while True: pass"), () => undefined);
  const waiting = runtime.run(request("danach"), () => undefined);
  await settle();
  await worker().say(READY);
  runtime.restart("neustart");
  const restarted: Interruption = { kind: "restarted", reason: "neustart", by: null };
  assert.deepEqual(await running, restarted);
  assert.deepEqual(await waiting, restarted, "a run still queued ends the same way");
  assert.ok(worker(0).terminated);
  assert.equal(FakeWorker.made.length, 2);
  assert.equal(runtime.epoch, 1);
  assert.deepEqual(reasons, ["neustart"]);
  const after = runtime.run(request("b = 2"), () => undefined);
  await settle();
  await worker(1).say(READY);
  assert.deepEqual(worker(1).runs(), ["b = 2"]);
  await worker(1).finish("2");
  assert.equal(valueOf(await after), "2");
});

test("Stopp while Python loads cancels the waiting runs and keeps the start", async () => {
  const waiting = runtime.run(request("x = 1"), () => undefined);
  await settle();
  assert.equal(runtime.cancelQueued(), true);
  assert.deepEqual(await waiting, { kind: "cancelled", by: null });
  await worker().say(READY);
  assert.equal(FakeWorker.made.length, 1);
  assert.deepEqual(worker().runs(), []);
  assert.deepEqual(reasons, []);
  runtime.run(request("y = 2"), () => undefined);
  await settle();
  assert.equal(runtime.cancelQueued(), false, "something runs: only a restart stops it");
});

test("Python that dies under a run is started again with the reason absturz", async (t) => {
  t.mock.method(console, "warn", () => undefined);
  const run = runtime.run(request("import os; os._exit(1)"), () => undefined);
  await settle();
  await worker().say(READY);
  await worker().say({ type: "dead", message: "Python antwortet nicht mehr" });
  assert.deepEqual(await run, { kind: "restarted", reason: "absturz", by: null });
  assert.deepEqual(reasons, ["absturz"]);
  assert.equal(FakeWorker.made.length, 2);
});

test("a batch of chunks streams into its run's cell, stretch by stretch", async () => {
  const chunks: string[] = [];
  const run = runtime.run(request("print(1)"), (stream, text) => chunks.push(`${stream}:${text}`));
  await settle();
  await worker().say(READY);
  await worker().say({ type: "chunks", id: 1, parts: [["stdout", "a"], ["stderr", "b"], ["stdout", "c"]] });
  await worker().finish("None");
  await run;
  assert.deepEqual(chunks, ["stdout:a", "stderr:b", "stdout:c"]);
});

test("a flood of messages from the worker ends it: a restart with the reason flut", async (t) => {
  t.mock.method(console, "warn", () => undefined);
  const chunks: string[] = [];
  const run = runtime.run(request("import js\nwhile True: js.postMessage(1)"), (_, text) => chunks.push(text));
  await settle();
  await worker().say(READY);
  const flood = worker();
  for (let i = 0; i < FLOOD_MESSAGES + 10; i++) flood.onmessage?.({ data: i } as unknown as MessageEvent<FromWorker>);
  await settle();
  assert.deepEqual(await run, { kind: "restarted", reason: "flut", by: null });
  assert.deepEqual(reasons, ["flut"]);
  assert.ok(flood.terminated);
  assert.equal(flood.onmessage, null, "what the flood queued is not handled any more");
  assert.equal(FakeWorker.made.length, 2);
  await flood.say({ type: "chunk", id: 1, stream: "stdout", text: "zu spät" });
  assert.deepEqual(chunks, []);
});

// What the worker says when Python cannot go on -> the reason the blocks are told.
for (const [what, code, says, reason] of [
  ["Python whose memory is used up", "print(1)", { type: "exhausted" }, "speicher"],
  ["close() in the worker", "import js; js.close()", { type: "closed" }, "beendet"],
] as const) {
  test(`${what} restarts Python with the reason ${reason}`, async () => {
    const run = runtime.run(request(code), () => undefined);
    await settle();
    await worker().say(READY);
    await worker().say(says);
    assert.deepEqual(await run, { kind: "restarted", reason, by: null });
    assert.deepEqual(reasons, [reason]);
    assert.equal(FakeWorker.made.length, 2);
  });
}

test("a new page resets the namespaces, or restarts when the old page left a run", async () => {
  await ranPublishedCell();
  runtime.newPage();
  assert.deepEqual(worker().sent.at(-1), { type: "reset" });
  assert.equal(FakeWorker.made.length, 1);
  const left = runtime.run(request("while True: pass"), () => undefined);
  await settle();
  runtime.newPage();
  assert.equal((await left).kind, "restarted");
  assert.equal(FakeWorker.made.length, 2);
  assert.deepEqual(reasons, [], "the old page's blocks are not told");
});

test("a worker that ran code the author did not publish serves only its page", async () => {
  await ranPublishedCell();
  assert.equal(runtime.ranReaderCode, false);
  runtime.run(request("2"), () => undefined); // edited by the reader
  await settle();
  await worker().finish("2");
  assert.equal(runtime.ranReaderCode, true);
  runtime.newPage();
  assert.equal(FakeWorker.made.length, 2, "the next page gets a fresh worker");
  assert.equal(runtime.ranReaderCode, false);
  await worker().say(READY);
  void runtime.call("challenge.check_id", { vorgabe: {} as never, kennung: "x" });
  assert.equal(runtime.ranReaderCode, false, "a call without the reader's code");
  void runtime.call("challenge.seed", { code: "", sprache: "python", vorgabe: {} as never, seed: 1, pruefung: "", urteilen: true });
  assert.equal(runtime.ranReaderCode, true, "a challenge's node is the reader's code");
});


test("a failed start says why and what the reader can do", () => {
  const text = unavailableText("Der Python-Worker ließ sich nicht starten.");
  assert.match(text, /^Python konnte nicht gestartet werden \(Der Python-Worker ließ sich nicht starten\)\./);
  assert.match(text, /Lade die Seite neu/);
  assert.match(text, /anderen Browser/);
});

test("a block's Stopp cancels while Python loads and restarts once it runs, naming the block", async () => {
  const cell = {};
  const waiting = runtime.run(request("x = 1"), () => undefined);
  await settle();
  runtime.stopp(cell);
  assert.deepEqual(await waiting, { kind: "cancelled", by: cell });
  assert.equal(FakeWorker.made.length, 1, "the download goes on");
  await worker().say(READY);
  const running = runtime.run(request("while True: pass"), () => undefined);
  await settle();
  runtime.stopp(cell);
  assert.deepEqual(await running, { kind: "restarted", reason: "stopp", by: cell });
  assert.deepEqual(reasons, ["stopp"]);
  assert.deepEqual(stoppers, [cell], "the blocks hear whose Stopp it was");
});

test("Python that cannot carry out a run, or cannot start, ends it with why", async () => {
  const run = runtime.run(request("1"), () => undefined);
  await settle();
  await worker().say(READY);
  await worker().say({ type: "failed", id: 1, message: "eingebaute Funktionen fehlen" });
  assert.deepEqual(await run, { kind: "failed", message: "eingebaute Funktionen fehlen" });
  runtime.stop();
  const later = runtime.run(request("2"), () => undefined);
  await settle();
  await worker(1).say({ type: "failed", id: null, message: "kein WebAssembly" });
  assert.deepEqual(await later, { kind: "unavailable", message: "kein WebAssembly" });
  assert.equal(runtime.state, "broken");
});

test("a call without a result rejects with Interrupted, carrying the same outcome", async () => {
  const call = runtime.call("console.reset", { key: "k" });
  await settle();
  await worker().say(READY);
  runtime.restart("neustart");
  await assert.rejects(call, (error: unknown) => {
    assert.ok(error instanceof Interrupted);
    assert.deepEqual(error.outcome, { kind: "restarted", reason: "neustart", by: null });
    return true;
  });
});
