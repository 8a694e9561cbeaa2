// What a reader's TypeScript node sees (a global script, no imports): the runtime's base class
// `Node` and its errors, as frontend/src/tsnode/runtime.ts implements them. The build and the
// page check a reader's code against this file (strict). The JSDoc is German: the reader's
// editor shows it.

/** Der Inhalt einer Nachricht: ein JSON-Objekt mit einem Feld `type`. */
interface Body {
  type: string;
  msg_id?: number;
  in_reply_to?: number;
  [feld: string]: unknown;
}

/** Eine Nachricht, wie Maelstrom sie schickt: Absender, Empfänger, Inhalt. */
interface Message<B extends Body = Body> {
  readonly src: string;
  readonly dest: string;
  readonly body: B;
}

/** Worauf ein Handler mit `await` wartet: `this.ask(…)`, `this.sleep(…)` und Gruppen davon.
 * Kein Promise: Im Cluster gibt es keine Ereignisschleife, nur die simulierte Zeit. */
interface Pending<T> extends PromiseLike<T> {
  readonly __wartet_auf: T;
}

/** Was `this.later(…)` zurückgibt: `cancel()` streicht den Timer (wie `clearTimeout`). */
interface Timer {
  cancel(): void;
}

/** `await this.ask(…)`: Bis zum Timeout kam keine Antwort (verloren, getrennt, zu langsam). */
declare class NoReply extends Error {}

/** `await this.ask(…)`: Die Antwort war ein Fehler (`type: "error"`); `body` ist sie. */
declare class ErrorReply extends Error {
  readonly body: Body;
  readonly code: unknown;
}

/** Pythons `random.Random(seed)` in TypeScript: Aus demselben Text zieht es dieselben Zahlen
 * wie ein Python-Knoten (`new Random(`${this.id}/${starts}`).randint(15, 30)`). */
declare class Random {
  constructor(seed: string);
  /** Eine ganze Zahl von `a` bis `b`, beide eingeschlossen (wie Pythons `randint`). */
  randint(a: number, b: number): number;
  /** Eine Zahl von 0 bis unter 1 (wie Pythons `random()`). */
  random(): number;
}

/** `await this.first(k, …)` oder `this.majority(…)`: Es können nicht mehr genug Antworten
 * kommen. `replies`: was kam, `errors`: was ausblieb oder scheiterte. */
declare class TooFewReplies extends NoReply {
  readonly replies: Message[];
  readonly errors: Error[];
}

/** Die Basisklasse eines Knotens. Für jeden Nachrichtentyp eine Methode `on<Typ>`:
 * `onEcho(msg)` bekommt jede Nachricht vom Typ `echo`, `onCommitOffsets(msg)` die vom Typ
 * `commit_offsets`. Ein Handler darf `async` sein und auf `this.ask(…)` oder `this.sleep(…)`
 * warten. Was in Feldern steht, verliert der Knoten bei einem Absturz; was in `this.store`
 * steht, übersteht ihn. */
declare abstract class Node {
  /** Timeout von `ask` in Ticks, wenn keiner angegeben ist (zum Überschreiben: `static TIMEOUT = 10`). */
  static TIMEOUT: number;
  /** Die ID dieses Knotens, z. B. „n1“. */
  readonly id: string;
  /** Die IDs aller Knoten, dieser eingeschlossen. */
  readonly nodeIds: readonly string[];
  /** Der Speicher des Knotens, der einen Absturz übersteht (nur JSON-Werte). */
  store: { [key: string]: any };
  /** Was der Knoten gerade ist (`"leader"`) oder `null`; eine Störung kann darauf zielen. */
  role: string | null;

  /** Nach dem Start und jedem Neustart (zum Überschreiben; darf `async` sein). */
  onStart?(): void | Promise<void>;
  /** Was das Bild neben dem Knoten zeigt und eine Invariante prüft. Standard: `this.store`.
   * Eine `Map` behält die Reihenfolge ihrer Schlüssel (ein Objekt stellt Zahlen-Schlüssel
   * aufsteigend voran). */
  state(): { [key: string]: unknown } | Map<string | number, unknown>;

  /** Schickt `body` an `dest` und wartet auf nichts (das Netz kann sie verlieren). */
  send(dest: string, body: Body): void;
  /** Antwortet auf `msg`: `body` mit `in_reply_to` = ihre `msg_id`. */
  reply(msg: Message<any>, body: Body): void;
  /** `const antwort = await this.ask("n2", {…})`: schickt eine Anfrage und wartet auf ihre
   * Antwort, höchstens `timeout` Ticks (sonst `NoReply`). Eine Fehlerantwort wirft `ErrorReply`. */
  ask(dest: string, body: Body, options?: { timeout?: number }): Pending<Message>;
  /** `await this.sleep(5)`: setzt den Handler nach `ticks` Ticks fort. */
  sleep(ticks: number): Pending<void>;
  /** `await this.first(2, [this.ask(…), …])`: die ersten `k` Erfolge in der Reihenfolge ihres
   * Eintreffens; können nicht mehr `k` gelingen, wirft es `TooFewReplies`. */
  first<T>(k: number, parts: readonly Pending<T>[]): Pending<T[]>;
  /** Wie `first`, mit so vielen Antworten, dass sie mit dem Knoten selbst eine Mehrheit sind. */
  majority<T>(parts: readonly Pending<T>[]): Pending<T[]>;
  /** `const [welches, wert] = await this.any(this.ask(…), this.sleep(10))`: das erste, das
   * eintrifft, mit seiner Stelle (ab 0). Scheitert es, wirft es dessen Fehler. */
  any<P extends Pending<unknown>[]>(
    ...parts: P
  ): Pending<[number, P[number] extends Pending<infer T> ? T : never]>;
  /** Ruft `fn()` in `ticks` Ticks auf (darf `async` sein), wie `setTimeout`. */
  later(ticks: number, fn: () => void | Promise<void>): Timer;
  /** Ruft `fn()` alle `ticks` Ticks auf, bis der Knoten abstürzt (`setInterval`). */
  every(ticks: number, fn: () => void | Promise<void>): void;
  /** Die Uhr dieses Knotens (ganze Ticks), mit Versatz und Drift, die eine Störung setzt. */
  clock(): number;
  /** Schreibt `text` ins Protokoll des Laufs (`console.log` ebenso). */
  note(text: unknown): void;
}
