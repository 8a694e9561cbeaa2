/**
 * What a challenge's shown run did, in words (./runview.ts draws it), without the DOM:
 * unit-tested under Node. The lines come from the reader's own node (`print`, `self.notiz`)
 * and the bodies from its messages: untrusted text, only ever set as text.
 */
import type { RunLogLine, RunMessage } from "../../generated/contract";
import { visibleBidi } from "../bidi";

/** The heading of a run's log. */
export const LOG_HEADING = "Notizen und Ausgaben der Knoten";

/** A run in which no node noted or printed anything. */
export const EMPTY_LOG = "Kein Knoten hat in diesem Lauf etwas notiert (self.notiz) oder ausgegeben (print).";

/** Characters of one line the page shows at most (pysim keeps 300 and says so; room for its note). */
export const MAX_LINE_CHARS = 400;
/** Lines of a log the page shows at most (pysim keeps 200 and one that says what it left out). */
export const MAX_LINES = 201;
/** Messages the page lists at most (the picture draws 400). */
export const MAX_MESSAGES = 400;

/** `text` cut to `max` characters, saying so, with direction switches made visible. */
export function shownText(text: string, max: number): string {
  const cut = text.length <= max ? text : `${text.slice(0, max)} … (gekürzt)`;
  return visibleBidi(cut);
}

/** One line of the log as its parts: where, when, what kind, what. */
export interface LogLineParts {
  /** „t=12“, empty for the line that says what was left out. */
  tick: string;
  node: string;
  /** „Notiz“ for `self.notiz`, empty for printed output. */
  kind: string;
  text: string;
  leftOut: boolean;
}

export function logLineParts(line: RunLogLine): LogLineParts {
  const leftOut = line.art === "ausgelassen";
  return {
    tick: leftOut ? "" : `t=${line.zeit}`,
    node: leftOut ? "" : shownText(line.knoten, 40),
    kind: line.art === "notiz" ? "Notiz" : "",
    text: shownText(line.text, MAX_LINE_CHARS),
    leftOut,
  };
}

/** „n1 → n2 · t=3 → t=5 · angekommen“: a message without its body. */
export function messageHead(message: RunMessage): string {
  const when = message.ankunft === null ? `t=${message.gesendet}` : `t=${message.gesendet} → t=${message.ankunft}`;
  return shownText(`${message.von} → ${message.an} · ${when} · ${message.schicksal}`, 200);
}

/** Every node, client and service a message of the run came from or went to, in a stable order:
 * services, then nodes (n1, n2, … by number), then clients (c1, c2, …). */
export function messageNodes(messages: readonly RunMessage[]): string[] {
  const names = new Set<string>();
  for (const message of messages) names.add(message.von).add(message.an);
  const rank = (name: string): [number, number, string] => {
    const match = /^([nc])(\d+)$/.exec(name);
    if (match === null) return [0, 0, name];
    return [match[1] === "n" ? 1 : 2, Number(match[2]), name];
  };
  return [...names].sort((a, b) => {
    const [ra, na, sa] = rank(a);
    const [rb, nb, sb] = rank(b);
    return ra - rb || na - nb || (sa < sb ? -1 : sa > sb ? 1 : 0);
  });
}

/** Does `message` concern `node` (sent or received)? An empty `node` means every message. */
export function involves(message: RunMessage, node: string): boolean {
  return node === "" || message.von === node || message.an === node;
}

/** The summary of the list: „Nachrichten des Laufs (108)“. */
export function messagesSummary(count: number): string {
  return `Nachrichten des Laufs (${count.toLocaleString("de-DE")})`;
}

/** How many messages a filter shows: „12 von 108 Nachrichten“. */
export function shownCount(shown: number, total: number): string {
  if (shown === total) return total === 1 ? "1 Nachricht" : `${total.toLocaleString("de-DE")} Nachrichten`;
  return `${shown.toLocaleString("de-DE")} von ${total.toLocaleString("de-DE")} Nachrichten`;
}

/** What neither the picture nor the list shows of a run with many messages. */
export function leftOutMessages(count: number): string {
  if (count <= 0) return "";
  if (count === 1) return "Eine weitere Nachricht des Laufs steht weder im Bild noch in dieser Liste.";
  return `${count.toLocaleString("de-DE")} weitere Nachrichten des Laufs stehen weder im Bild noch in dieser Liste.`;
}
