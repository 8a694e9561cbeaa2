// The call protocol between the Python side (pysim/cluster/ts_knoten.py) and the JavaScript
// runtime of a reader's TypeScript node: one request, one answer, JSON only. The same shapes
// travel over a Node.js process's stdin/stdout (build, CPython's tests) and through Pyodide's
// JavaScript bridge (the browser's Python worker).

/** A JSON value: what crosses the boundary (bodies, the store, the state). */
export type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

/** What a handler awaits, described for the Python side, which awaits the same `Wartbar`. */
export type WaitSpec =
  | { kind: "ask"; dest: string; body: { [key: string]: Json }; timeout: number | null }
  | { kind: "sleep"; ticks: number }
  | { kind: "first"; k: number; parts: WaitSpec[] }
  | { kind: "majority"; parts: WaitSpec[] }
  | { kind: "any"; parts: WaitSpec[] };

/** What a node's code did during one step, in order; the Python side does it afterwards. */
export type Effect =
  | ["send", string, { [key: string]: Json }, "sende" | "antworte"]
  | ["note", string]
  | ["print", string]
  | ["later", number, number]
  | ["every", number, number]
  | ["cancel", number];

/** How an await on the Python side ended, handed back to the waiting handler. */
export type Resumption =
  | { value: Json }
  | {
      error: {
        kind: "NoReply" | "ErrorReply" | "TooFewReplies" | "Error";
        message: string;
        body?: Json;
        replies?: Json[];
        errors?: Resumption[];
      };
    };

/** Where a step ended. */
export type Outcome =
  | { done: true }
  | { wait: WaitSpec; task: number }
  | { error: { name: string; message: string; line: number | null; code: string } }
  | { budget: { line: number | null; code: string; name: string } };

/** The answer to every request that runs the reader's code. */
export interface StepAnswer {
  effects: Effect[];
  /** The node's store as JSON pairs in the order its keys were set, when it changed in
   * this step (else absent): a JSON object would put integer-like keys first. */
  store?: Array<[string, Json]>;
  role: string | null;
  /** `state()`'s result when the class defines it, as pairs in its own order. */
  state?: Array<[string, Json]>;
  outcome: Outcome;
}

export interface CompiledInfo {
  prog: number;
  className: string;
  /** The class's methods named on<Type> (handlers), `onStart` and `state` included. */
  methods: string[];
}

export interface Diagnostic {
  line: number;
  column: number;
  code: number;
  message: string;
}

export type Request =
  | { op: "compile"; code: string }
  | { op: "check"; code: string }
  | {
      op: "start";
      prog: number;
      id: string;
      nodeIds: string[];
      /** The store's pairs in the order of its keys (Python's dict order). */
      store: Array<[string, Json]>;
      clock: number;
      budget: number;
    }
  | { op: "deliver"; inst: number; msg: Json; clock: number; budget: number }
  | { op: "resume"; inst: number; task: number; with: Resumption; clock: number; budget: number }
  | { op: "timer"; inst: number; timer: number; clock: number; budget: number }
  /** Objects and loaded programs whose Python stand-ins are gone. */
  | { op: "drop"; insts: number[]; progs?: number[] };

export type Answer =
  | StepAnswer
  | (StepAnswer & { inst: number })
  | CompiledInfo
  | { compileError: { message: string; line: number | null } }
  | { diagnostics: Diagnostic[] }
  | { dropped: number }
  | { fault: string };
