// The runtime of a reader's TypeScript node: the base class `Node` (the Python `Knoten` in
// TypeScript's idiom), the futures a handler awaits, and the stepping of async handlers
// without the JavaScript event loop. A step is one call from the Python side (start, a
// message, a resumed await, a timer); it ends when the code returns or awaits one of the
// runtime's futures, and answers with what the code did (effects, in order), the store when
// it changed, the role, the state and where the handler stands (done, waiting on a described
// future, failed, out of budget). The Python side does the effects and awaits the very same
// `Wartbar` a Python node would, then resumes the handler here: parity by construction.
import { CompileError, compileNode, type Compiled } from "./compile";
import type {
  Answer,
  CompiledInfo,
  Effect,
  Json,
  Outcome,
  Request,
  Resumption,
  StepAnswer,
  WaitSpec,
} from "./protocol";
import { Random } from "./random";
import { sourceLine, type LineMap } from "./sourcemap";

/** `await this.ask(…)`: no reply before the timeout (Python: `KeineAntwort`). */
export class NoReply extends Error {
  override name = "NoReply";
}
/** `await this.ask(…)`: the reply was an error (`type: "error"`); `body` is it (Python: `FehlerAntwort`). */
export class ErrorReply extends Error {
  override name = "ErrorReply";
  readonly code: Json;
  constructor(readonly body: { [key: string]: Json }) {
    super(`Fehler ${String(body["code"])}: ${String(body["text"] ?? "")}`.replace(/: $/, ""));
    this.code = body["code"] ?? null;
  }
}
/** `await this.first(…)`/`this.majority(…)`: not enough replies can come (Python: `ZuWenigAntworten`). */
export class TooFewReplies extends NoReply {
  override name = "TooFewReplies";
  constructor(
    message: string,
    readonly replies: Json[],
    readonly errors: Error[],
  ) {
    super(message);
  }
}

/** A German error of the reader's code at a line the runtime knows (an await of a Promise). */
class ReaderError extends Error {
  constructor(
    message: string,
    readonly line: number | null = null,
  ) {
    super(message);
  }
}

/** The loop budget ran out: not an `Error`, and once out it stays out for the step. */
class BudgetExceeded {
  constructor(readonly line: number) {}
}

/** One of the runtime's futures: what `ask`, `sleep`, `first`, `majority`, `any` give. */
export class Pending {
  constructor(readonly spec: WaitSpec) {}
  then(): never {
    throw new ReaderError(
      "Auf this.ask(…), this.sleep(…), this.first(…), this.majority(…) und this.any(…) " +
        "wartet ein Handler mit await, nicht mit .then(…).",
    );
  }
}

/** A value awaited that is not a future (`await 5`): goes on at once, as in JavaScript. */
class Ready {
  constructor(readonly value: unknown) {}
}

/** A running async function (what the runtime's `__awaiter` gives instead of a Promise). */
class Task {
  done = false;
  failed = false;
  value: unknown = undefined;
  waiting: Pending | Task | null = null;
  parent: Task | null = null;
  constructor(readonly gen: Generator<unknown, unknown, unknown>) {}
  then(): never {
    throw new ReaderError(
      "Eine async-Methode erwartet man im Knoten mit await, nicht mit .then(…).",
    );
  }
}

type Handler = (...args: unknown[]) => unknown;

interface Instance {
  node: NodeBase;
  prog: Program;
  tasks: Map<number, Task>;
  timers: Map<number, { fn: Handler; every: boolean }>;
  storeText: string;
}

interface Program {
  cls: new () => NodeBase;
  compiled: Compiled;
  methods: string[];
}

/** The step that runs now: what the code does is recorded here. */
interface Step {
  inst: Instance;
  effects: Effect[];
  tasks: Task[];
  clock: number;
  budget: number;
  exceeded: BudgetExceeded | null;
}

let current: Step | null = null;

/** The running step, for what a node does (send, timers, the clock): not in its constructor. */
function step(): Step {
  if (current === null || current.inst.node === undefined) {
    throw new ReaderError(
      "Senden, Fragen, Timer und die Uhr gibt es erst ab onStart() und in den Handlern, " +
        "nicht schon im Konstruktor.",
    );
  }
  return current;
}

const JSON_HINT = "Zwischen Knoten reisen nur JSON-Werte (Zahlen, Texte, true/false, null, Arrays, Objekte).";

/** `value` as JSON or a German error naming where it is not JSON. */
export function asJson(value: unknown, where: string): Json {
  const seen = new Set<object>();
  // `path` is where in the value (`werte[2]`), empty at its top
  const walk = (v: unknown, path: string): Json => {
    const what = path === "" ? "der Wert" : `„${path}“`;
    if (v === null || typeof v === "string" || typeof v === "boolean") return v;
    if (typeof v === "number") {
      if (Number.isFinite(v)) return v;
      throw new ReaderError(`${where}: ${what} ist ${String(v)}, das ist kein JSON. ${JSON_HINT}`);
    }
    if (typeof v === "object") {
      if (seen.has(v)) throw new ReaderError(`${where}: ${what} enthält sich selbst. ${JSON_HINT}`);
      seen.add(v);
      try {
        if (Array.isArray(v)) return v.map((item, i) => walk(item, `${path}[${i}]`));
        const proto = Object.getPrototypeOf(v) as unknown;
        if (proto !== Object.prototype && proto !== null) {
          const kind = (v as { constructor?: { name?: string } }).constructor?.name ?? "Objekt";
          throw new ReaderError(
            `${where}: ${what} ist ein ${kind}, kein einfaches Objekt. ${JSON_HINT}` +
              (kind === "Set" || kind === "Map" ? ` Aus einem ${kind} wird eines mit [...x].` : ""),
          );
        }
        const out: { [key: string]: Json } = {};
        for (const [key, item] of Object.entries(v)) {
          if (item === undefined) continue; // as JSON.stringify: a field without a value is left out
          out[key] = walk(item, path === "" ? key : `${path}.${key}`);
        }
        return out;
      } finally {
        seen.delete(v);
      }
    }
    throw new ReaderError(`${where}: ${what} ist ${typeof v === "undefined" ? "undefined" : `ein Wert vom Typ ${typeof v}`}, das ist kein JSON. ${JSON_HINT}`);
  };
  return walk(value, "");
}

function asBody(value: unknown, where: string): { [key: string]: Json } {
  const json = asJson(value, where);
  if (json === null || typeof json !== "object" || Array.isArray(json) || typeof json["type"] !== "string") {
    throw new ReaderError(`${where}: Der Inhalt ist ein Objekt mit einem Feld „type“ (ein Text), z. B. { type: "echo_ok" }.`);
  }
  return json;
}

/**
 * `this.store` keeps its keys in the order they were first set, as a Python dict does: a
 * plain object puts keys that look like integers ("0", "1") first, in ascending order, and
 * the picture's panel and the run's messages would then differ from the Python node's
 * (register: `this.werte = this.store`, keys 1 then 0). A Proxy whose `ownKeys` gives the
 * order of insertion (Object.keys, for…in, JSON.stringify follow it); nested objects are
 * plain.
 */
export function orderedObject(pairs: Array<[string, unknown]>): { [key: string]: unknown } {
  const target: { [key: string]: unknown } = {};
  const order: string[] = [];
  for (const [key, value] of pairs) {
    if (!Object.prototype.hasOwnProperty.call(target, key)) order.push(key);
    target[key] = value;
  }
  return new Proxy(target, {
    defineProperty(t, key, descriptor) {
      if (typeof key === "string" && !Object.prototype.hasOwnProperty.call(t, key)) order.push(key);
      return Reflect.defineProperty(t, key, descriptor);
    },
    deleteProperty(t, key) {
      const index = typeof key === "string" ? order.indexOf(key) : -1;
      if (index >= 0) order.splice(index, 1);
      return Reflect.deleteProperty(t, key);
    },
    ownKeys(t) {
      const own = Reflect.ownKeys(t);
      // every own key once: the recorded order, then any the traps did not see (symbols)
      return [...order.filter((k) => own.includes(k)), ...own.filter((k) => typeof k !== "string" || !order.includes(k))];
    },
  });
}

/** An object's own entries as JSON pairs, in its own order (`orderedObject`'s too); a Map's
 * in its order of insertion (`state()` may return one: TypeScript's ordered dict). */
function asJsonPairs(value: unknown, where: string): Array<[string, Json]> {
  if (value instanceof Map) {
    return [...value].map(([key, item]) => [String(key), asJson(item, `${where}: „${String(key)}“`)]);
  }
  if (value === null || typeof value !== "object" || Array.isArray(value)) {
    throw new ReaderError(`${where} ist ein Objekt (Schlüssel → JSON-Wert), nicht ${describe(value)}.`);
  }
  const json = asJson(value, where) as { [key: string]: Json };
  return Object.keys(value).filter((key) => key in json).map((key) => [key, json[key]!]);
}

function wholeNumber(value: unknown, what: string, least: number): number {
  if (typeof value !== "number" || !Number.isInteger(value) || value < least) {
    throw new ReaderError(`${what} muss eine ganze Zahl ab ${least} sein, nicht ${String(value)}.`);
  }
  return value;
}

function partsOf(parts: unknown, where: string): WaitSpec[] {
  if (!Array.isArray(parts)) throw new ReaderError(`${where} bekommt ein Array von this.ask(…)/this.sleep(…).`);
  return parts.map((part: unknown) => {
    if (!(part instanceof Pending)) {
      throw new ReaderError(
        `${where} wartet auf this.ask(…), this.sleep(…) und Gruppen davon, nicht auf ${describe(part)}.`,
      );
    }
    return part.spec;
  });
}

function describe(value: unknown): string {
  if (value instanceof Task) return "eine async-Funktion";
  if (value !== null && typeof value === "object" && typeof (value as { then?: unknown }).then === "function") {
    return "ein Promise";
  }
  return value === null ? "null" : typeof value;
}

/** The base class of a reader's node (declared for the reader in reader/knoten.d.ts). */
export class NodeBase {
  static TIMEOUT = 20;
  id = "";
  nodeIds: string[] = [];
  store: { [key: string]: unknown } = orderedObject([]);
  role: string | null = null;

  state(): { [key: string]: unknown } | Map<string | number, unknown> {
    return this.store;
  }
  send(dest: unknown, body: unknown): void {
    const s = step();
    s.effects.push(["send", String(dest), asBody(body, `${this.id}.send`), "sende"]);
  }
  reply(msg: unknown, body: unknown): void {
    const m = msg as { src?: unknown; body?: { msg_id?: unknown } } | null;
    if (m === null || typeof m !== "object" || typeof m.src !== "string" || typeof m.body !== "object") {
      throw new ReaderError(`reply(msg, body): msg ist die Nachricht, auf die ${this.id} antwortet, nicht ${describe(msg)}.`);
    }
    const out = asBody(body, `${this.id}.reply`);
    if (m.body !== null && "msg_id" in m.body) out["in_reply_to"] = asJson(m.body.msg_id, `${this.id}.reply`);
    step().effects.push(["send", m.src, out, "antworte"]);
  }
  ask(dest: unknown, body: unknown, options?: { timeout?: number }): Pending {
    // without a timeout: the class's `static TIMEOUT` (20 unless the node sets its own)
    const timeout = options?.timeout ?? (this.constructor as typeof NodeBase).TIMEOUT;
    return new Pending({
      kind: "ask",
      dest: String(dest),
      body: asBody(body, `${this.id}.ask`),
      timeout: wholeNumber(timeout, "Der Timeout", 1),
    });
  }
  sleep(ticks: unknown): Pending {
    return new Pending({ kind: "sleep", ticks: wholeNumber(ticks, "Die Wartezeit", 0) });
  }
  first(k: unknown, parts: unknown): Pending {
    const where = `${this.id}.first(k, […])`;
    const specs = partsOf(parts, where);
    const n = wholeNumber(k, `k in ${where}`, 0);
    if (n > specs.length) {
      throw new ReaderError(
        `${where} soll auf ${n} Erfolge warten, hat aber nur ${specs.length} Wartbare: Mehr als ${specs.length} können nicht gelingen.`,
      );
    }
    return new Pending({ kind: "first", k: n, parts: specs });
  }
  majority(parts: unknown): Pending {
    return this.first(Math.floor(this.nodeIds.length / 2), parts);
  }
  any(...parts: unknown[]): Pending {
    const where = `${this.id}.any(…)`;
    const specs = partsOf(parts, where);
    if (specs.length === 0) throw new ReaderError(`${where} braucht mindestens ein Wartbar, worauf es wartet.`);
    return new Pending({ kind: "any", parts: specs });
  }
  later(ticks: unknown, fn: unknown): { cancel(): void } {
    return this.timer(ticks, fn, false, "Die Wartezeit", 0);
  }
  every(ticks: unknown, fn: unknown): void {
    this.timer(ticks, fn, true, "Der Abstand", 1);
  }
  private timer(ticks: unknown, fn: unknown, every: boolean, what: string, least: number): { cancel(): void } {
    const n = wholeNumber(ticks, what, least);
    if (typeof fn !== "function") throw new ReaderError(`${every ? "every" : "later"}(ticks, fn): fn ist eine Funktion, z. B. () => this.tick().`);
    const s = step();
    const id = ++timerIds;
    s.inst.timers.set(id, { fn: fn as Handler, every });
    s.effects.push([every ? "every" : "later", id, n]);
    const inst = s.inst;
    return {
      cancel: () => {
        if (!every && inst.timers.delete(id)) step().effects.push(["cancel", id]);
      },
    };
  }
  clock(): number {
    return step().clock;
  }
  note(text: unknown): void {
    step().effects.push(["note", String(text)]);
  }
}

let timerIds = 0;

/** `console.log` and friends of the reader's code: into the run's log, as Python's print. */
const readerConsole = {
  log: (...args: unknown[]) => print(args),
  info: (...args: unknown[]) => print(args),
  warn: (...args: unknown[]) => print(args),
  error: (...args: unknown[]) => print(args),
};
function print(args: unknown[]): void {
  const text = args.map((a) => (typeof a === "string" ? a : safeText(a))).join(" ");
  step().effects.push(["print", text]);
}
function safeText(value: unknown): string {
  try {
    return JSON.stringify(value) ?? String(value);
  } catch {
    return String(value);
  }
}

/** TypeScript's `__awaiter`, stepping the generator synchronously (no Promise, no event loop). */
function awaiter(thisArg: unknown, _args: unknown, _p: unknown, body: (this: unknown) => Generator): Task {
  const task = new Task(body.call(thisArg) as Generator<unknown, unknown, unknown>);
  step().tasks.push(task);
  advance(task, { value: undefined });
  return task;
}

/** What an `await` may get: the runtime's futures, another async function of the node, a plain value. */
function warte(value: unknown, line: number): unknown {
  if (value instanceof Pending || value instanceof Task) return value;
  if (value !== null && typeof value === "object" && typeof (value as { then?: unknown }).then === "function") {
    throw new ReaderError(
      "Ein Handler kann nur auf this.ask(…), this.sleep(…), this.first(…), this.majority(…) " +
        "und this.any(…) warten (await), nicht auf ein Promise: setTimeout, fetch und " +
        "Promises gibt es im Cluster nicht (nimm this.sleep(…) oder this.later(…)).",
      line,
    );
  }
  return new Ready(value);
}

type Resume = { value: unknown } | { error: unknown };

/** Runs `task` from its await with `resume` until it awaits a future or ends. */
function advance(task: Task, resume: Resume): void {
  let next: Resume | null = resume;
  while (next !== null) {
    const r: Resume = next;
    next = null;
    let result: IteratorResult<unknown, unknown>;
    try {
      result = "error" in r ? task.gen.throw(r.error) : task.gen.next(r.value);
    } catch (e) {
      task.done = task.failed = true;
      task.value = e;
      return;
    }
    if (result.done) {
      task.done = true;
      task.value = result.value;
      return;
    }
    const awaited: unknown = result.value;
    if (awaited instanceof Ready) {
      next = { value: awaited.value };
    } else if (awaited instanceof Task) {
      if (awaited.done) {
        next = awaited.failed ? { error: awaited.value } : { value: awaited.value };
      } else {
        awaited.parent = task;
        task.waiting = awaited;
      }
    } else {
      task.waiting = awaited as Pending;
    }
  }
}

/** The future the whole chain of `root` waits on. */
function leaf(root: Task): Task {
  let task = root;
  while (task.waiting instanceof Task) task = task.waiting;
  return task;
}

/** Resumes the innermost waiting task of `root`, then every task that waited on one that ended. */
function resumeChain(root: Task, resume: Resume): void {
  let task = leaf(root);
  task.waiting = null;
  advance(task, resume);
  while (task.done && task.parent !== null) {
    const parent = task.parent;
    task.parent = null;
    parent.waiting = null;
    advance(parent, task.failed ? { error: task.value } : { value: task.value });
    task = parent;
  }
}

function budgetCheck(line: number): void {
  const s = current;
  if (s === null) return; // the class's own top-level code, run once at compile
  if (s.exceeded !== null || --s.budget < 0) {
    s.exceeded ??= new BudgetExceeded(line);
    throw s.exceeded;
  }
}

function requireBlocked(): never {
  throw new ReaderError("Ein Knoten im Cluster lädt keine Module: Alles, was er braucht, steht in seiner Datei.");
}

export const GLOBALS = [
  "Node", "NoReply", "ErrorReply", "TooFewReplies", "Random", "__awaiter", "__warte", "__schritt",
  "console", "exports", "require", "setTimeout", "setInterval", "fetch",
] as const;

/** V8 puts `new Function`'s body below two lines of its own; measured, not assumed. */
const BODY_OFFSET = (() => {
  try {
    new Function("throw new Error()\n//# sourceURL=probe.js")();
  } catch (e) {
    const m = /probe\.js:(\d+):/.exec(String((e as Error).stack));
    if (m) return Number(m[1]) - 1;
  }
  return 2;
})();

/** A compiled node made runnable: called with the values of `GLOBALS`, it gives the class. */
export type Factory = (...globals: unknown[]) => unknown;

/** The text of a node's factory, the same for every loader: strict, as an ES module is. */
export function factoryBody(compiled: Compiled): string {
  return `"use strict";\n${compiled.js}\nreturn ${compiled.className};\n`;
}

/**
 * How a compiled node becomes a `Factory`. Node.js (the build, the tests): `new Function`.
 * The browser's Python worker runs under the page's Content-Security-Policy, which evaluates
 * no strings: there the node is imported as an ES module from a `blob:` address beforehand
 * (`tsnode-worker.ts` `prepare`), and the loader hands out what that import made.
 */
export interface Loader {
  factory(compiled: Compiled): Factory;
  /** Lines before the compiled code's first line in what the engine runs (error lines). */
  readonly offset: number;
  /** Stack frames of the reader's code: `…:line:column` after this. */
  readonly frame: RegExp;
}

/** The loader of Node.js: `new Function` over `factoryBody`. */
export const FUNCTION_LOADER: Loader = {
  factory: (compiled) =>
    new Function(...GLOBALS, `${factoryBody(compiled)}//# sourceURL=knoten.js`) as Factory,
  offset: BODY_OFFSET + 1,
  frame: /knoten\.js:(\d+):(\d+)/g,
};

const timersAbsent = (): never => {
  throw new ReaderError(
    "setTimeout, setInterval und fetch gibt es im Cluster nicht: Nimm this.later(…), this.every(…) oder this.ask(…).",
  );
};

export class Engine {
  constructor(private readonly loader: Loader = FUNCTION_LOADER) {}

  private programs = new Map<number, Program>();
  private byCode = new Map<string, Compiled>();
  private instances = new Map<number, Instance>();
  private nextProg = 0;
  private nextInst = 0;
  private nextTask = 0;

  handle(request: Request): Answer {
    switch (request.op) {
      case "compile":
        return this.compile(request.code);
      case "check":
        return { fault: "check ist in dieser Laufzeit nicht verfügbar" };
      case "start":
        return this.start(request);
      case "deliver":
        return this.run(request.inst, request.clock, request.budget, (inst) => {
          const msg = request.msg as { body: { type: string } };
          const name = handlerName(msg.body.type);
          const method = (inst.node as unknown as Record<string, unknown>)[name];
          return (method as Handler).call(inst.node, deepFreezeCopy(msg));
        }, "handler");
      case "resume":
        return this.resume(request.inst, request.task, request.with, request.clock, request.budget);
      case "timer":
        return this.run(request.inst, request.clock, request.budget, (inst) => {
          const timer = inst.timers.get(request.timer);
          if (timer === undefined) return undefined; // cancelled meanwhile
          if (!timer.every) inst.timers.delete(request.timer);
          return timer.fn.call(undefined);
        }, "timer");
      case "drop":
        for (const inst of request.insts) this.instances.delete(inst);
        for (const prog of request.progs ?? []) this.programs.delete(prog);
        return { dropped: request.insts.length };
    }
  }

  /** `code` transpiled (once per code), or where it does not compile. */
  compiled(code: string): Compiled | CompileError {
    let compiled = this.byCode.get(code);
    if (compiled === undefined) {
      try {
        compiled = compileNode(code);
      } catch (e) {
        if (e instanceof CompileError) return e;
        throw e;
      }
      this.byCode.set(code, compiled);
    }
    return compiled;
  }

  private compile(code: string): CompiledInfo | { compileError: { message: string; line: number | null } } {
    // Transpiled once per code; evaluated anew at every load, as Python runs a node's code
    // anew for each `load_node`: what its top level keeps (a counter) starts fresh.
    const compiled = this.compiled(code);
    if (compiled instanceof CompileError) return { compileError: { message: compiled.message, line: compiled.line } };
    let cls: new () => NodeBase;
    try {
      const factory = this.loader.factory(compiled);
      cls = factory(
        NodeBase, NoReply, ErrorReply, TooFewReplies, Random, awaiter, warte, budgetCheck, readerConsole,
        {}, requireBlocked, timersAbsent, timersAbsent, timersAbsent,
      ) as new () => NodeBase;
    } catch (e) {
      if (e instanceof EvalError) {
        // the page's Content-Security-Policy forbids `new Function` (ARCHITECTURE.md, issue 55)
        return {
          compileError: {
            message:
              "Diese Seite darf übersetzten Code nicht ausführen (ihre Content-Security-Policy " +
              "erlaubt kein 'unsafe-eval'): TypeScript-Knoten laufen hier noch nicht.",
            line: null,
          },
        };
      }
      const line = e instanceof ReaderError ? e.line : lineOfError(e, compiled.lines, this.loader);
      return { compileError: { message: `${errorName(e)}: ${errorMessage(e)}`, line } };
    }
    const methods: string[] = [];
    for (let proto = cls.prototype as object | null; proto && proto !== NodeBase.prototype; proto = Object.getPrototypeOf(proto) as object | null) {
      for (const name of Object.getOwnPropertyNames(proto)) {
        if ((/^on[A-Z]/.test(name) || name === "state") && !methods.includes(name)) methods.push(name);
      }
    }
    const prog = ++this.nextProg;
    this.programs.set(prog, { cls, compiled, methods: methods.sort() });
    return this.info(prog);
  }

  private info(prog: number): CompiledInfo {
    const p = this.programs.get(prog)!;
    return { prog, className: p.compiled.className, methods: p.methods };
  }

  private start(request: Extract<Request, { op: "start" }>): StepAnswer & { inst: number } {
    const prog = this.programs.get(request.prog);
    if (prog === undefined) throw new Error(`unknown program ${request.prog}`);
    const id = ++this.nextInst;
    const storeText = JSON.stringify(request.store);
    const storePairs = request.store;
    // The instance exists before its constructor runs, so a step can record what it does.
    const inst: Instance = { node: undefined as unknown as NodeBase, prog, tasks: new Map(), timers: new Map(), storeText };
    this.instances.set(id, inst);
    const answer = this.run(id, request.clock, request.budget, (i) => {
      i.node = new prog.cls(); // its constructor may not send: `step()` refuses while node is unset
      i.node.id = request.id;
      i.node.nodeIds = [...request.nodeIds];
      i.node.store = orderedObject(storePairs);
      const start = (i.node as unknown as Record<string, unknown>)["onStart"];
      return typeof start === "function" ? (start as Handler).call(i.node) : undefined;
    }, "start");
    return { ...answer, inst: id };
  }

  private resume(instId: number, taskId: number, how: Resumption, clock: number, budget: number): StepAnswer {
    return this.run(instId, clock, budget, (inst) => {
      const root = inst.tasks.get(taskId);
      if (root === undefined) throw new Error(`unknown task ${taskId}`);
      inst.tasks.delete(taskId);
      resumeChain(root, "value" in how ? { value: how.value } : { error: asError(how) });
      return root;
    }, "resume");
  }

  /** One step of the reader's code: `body` runs, its result (a Task or a value) ends the step. */
  private run(instId: number, clock: number, budget: number, body: (inst: Instance) => unknown, _what: string): StepAnswer {
    const inst = this.instances.get(instId);
    if (inst === undefined) throw new Error(`unknown instance ${instId}`);
    const s: Step = { inst, effects: [], tasks: [], clock, budget, exceeded: null };
    current = s;
    let outcome: Outcome;
    try {
      const result = body(inst);
      outcome = this.outcome(inst, result, s);
    } catch (e) {
      outcome = this.failure(e, inst, s);
    } finally {
      current = null;
    }
    if (s.exceeded !== null) outcome = this.failure(s.exceeded, inst, s);
    const answer: StepAnswer = { effects: s.effects, role: null, outcome };
    if (inst.node === undefined) return answer;
    answer.role = typeof inst.node.role === "string" ? inst.node.role : null;
    try {
      const storeJson = asJsonPairs(inst.node.store, `${inst.node.id}: this.store`);
      const text = JSON.stringify(storeJson);
      if (text !== inst.storeText) {
        inst.storeText = text;
        answer.store = storeJson;
      }
      if (inst.prog.methods.includes("state")) {
        current = s;
        try {
          answer.state = asJsonPairs(inst.node.state(), `${inst.node.id}.state()`);
        } finally {
          current = null;
        }
      }
    } catch (e) {
      if (!("error" in answer.outcome) && !("budget" in answer.outcome)) answer.outcome = this.failure(e, inst, s);
    }
    return answer;
  }

  private outcome(inst: Instance, result: unknown, s: Step): Outcome {
    // a task started in this step that waits and nobody awaits: Python would not have run it
    const dangling = s.tasks.find((t) => t !== result && !t.done && t.parent === null);
    if (dangling !== undefined) {
      throw new ReaderError(
        "Eine async-Methode lief ohne await und wartet nun auf etwas: Im Cluster läuft sie " +
          "nur weiter, wenn ein Handler sie mit await erwartet (oder als Timer: " +
          "this.later(0, () => this.methode())).",
      );
    }
    if (!(result instanceof Task)) return { done: true };
    if (result.done) {
      if (result.failed) throw result.value;
      return { done: true };
    }
    const task = ++this.nextTask;
    inst.tasks.set(task, result);
    return { wait: (leaf(result).waiting as Pending).spec, task };
  }

  private failure(e: unknown, inst: Instance, _s: Step): Outcome {
    const source = inst.prog.compiled.source;
    if (e instanceof BudgetExceeded) {
      return { budget: { line: e.line, code: (source[e.line - 1] ?? "").trim(), name: "" } };
    }
    const line = e instanceof ReaderError && e.line !== null ? e.line : lineOfError(e, inst.prog.compiled.lines, this.loader);
    let message = errorMessage(e);
    let name = errorName(e);
    if (e instanceof RangeError && /call stack/i.test(message)) {
      name = "RecursionError";
      message = "Zu tiefe Rekursion: Der Aufrufstapel ist voll (eine Funktion ruft sich ohne Ende selbst auf?).";
    }
    return { error: { name, message, line, code: line === null ? "" : (source[line - 1] ?? "").trim() } };
  }
}

function handlerName(type: string): string {
  return "on" + type.split("_").map((part) => part.charAt(0).toUpperCase() + part.slice(1)).join("");
}

/** The message a handler gets: its own copy (a handler that changes it changes nothing else). */
function deepFreezeCopy(msg: unknown): unknown {
  return JSON.parse(JSON.stringify(msg)) as unknown;
}

function asError(how: Extract<Resumption, { error: unknown }>): Error {
  const e = how.error;
  switch (e.kind) {
    case "NoReply":
      return new NoReply(e.message);
    case "ErrorReply":
      return new ErrorReply((e.body ?? {}) as { [key: string]: Json });
    case "TooFewReplies":
      return new TooFewReplies(e.message, e.replies ?? [], (e.errors ?? []).map((r) => ("error" in r ? asError(r) : new Error(""))));
    default:
      return new ReaderError(e.message);
  }
}

function errorName(e: unknown): string {
  if (e instanceof ReaderError) return "Error";
  return e instanceof Error ? e.name : "Error";
}

function errorMessage(e: unknown): string {
  if (e instanceof Error) return e.message;
  return `geworfen wurde ${safeText(e)}, kein Error`;
}

/** The reader's line of an error: the first frame in knoten.js the source map knows (a
 * frame in code the transformer added, `__schritt`, has none: the next frame's call). */
function lineOfError(e: unknown, lines: LineMap, loader: Loader): number | null {
  const stack = e instanceof Error ? String(e.stack) : "";
  for (const m of stack.matchAll(loader.frame)) {
    const line = sourceLine(lines, Number(m[1]) - loader.offset, Number(m[2]));
    if (line !== null) return line;
  }
  return null;
}
