/**
 * Beside a challenge's picture (./challenge.ts): what the shown run's nodes noted and printed,
 * the message an arrow stands for (pointer or keyboard), and the run's messages as a list a
 * reader can narrow to one node. Everything from Python is set as text, never as markup: the
 * lines and bodies are the reader's own node's, and untrusted (./runlog.ts words them).
 */
import type { RunMessage, SeedOutcomeData } from "../../generated/contract";
import { visibleBidi } from "../bidi";
import {
  EMPTY_LOG,
  involves,
  LOG_HEADING,
  leftOutMessages,
  logLineParts,
  MAX_LINES,
  MAX_MESSAGES,
  messageHead,
  messageNodes,
  messagesSummary,
  shownCount,
  shownText,
} from "./runlog";
import { element } from "../dom";

/** Characters of a body the list shows (pysim cuts bodies at 200 and says so with „…“). */
const MAX_BODY_CHARS = 400;

/** Under the picture in `box`: the arrows' messages, the run's log and its messages. */
export function runDetails(outcome: SeedOutcomeData, label: string, box: HTMLElement): HTMLElement[] {
  const parts: HTMLElement[] = [];
  const caption = arrowsByKeyboard(box);
  if (caption !== null) parts.push(caption);
  parts.push(runLog(outcome, label));
  const messages = messageList(outcome, label);
  if (messages !== null) parts.push(messages);
  return parts;
}

/** „Notizen und Ausgaben der Knoten“: each line with its tick and node, in order. */
function runLog(outcome: SeedOutcomeData, label: string): HTMLElement {
  const log = element("div", "lk-challenge__log");
  log.setAttribute("role", "group");
  log.setAttribute("aria-label", `${LOG_HEADING}: ${label}, Seed ${outcome.seed}`);
  log.append(element("p", "lk-challenge__log-head", LOG_HEADING));
  const lines = outcome.protokoll.slice(0, MAX_LINES);
  if (lines.length === 0) {
    log.append(element("p", "lk-challenge__log-empty", EMPTY_LOG));
    return log;
  }
  const list = element("ol", "lk-challenge__log-lines");
  for (const line of lines) {
    const parts = logLineParts(line);
    const item = element("li", `lk-challenge__log-line${parts.leftOut ? " lk-challenge__log-line--left-out" : ""}`);
    if (!parts.leftOut) {
      item.append(element("span", "lk-challenge__log-tick", parts.tick), " ", element("span", "lk-challenge__log-node", parts.node), " ");
      if (parts.kind) item.append(element("span", "lk-challenge__log-kind", parts.kind), " ");
    }
    item.append(element("span", "lk-challenge__log-text", parts.text));
    list.append(item);
  }
  log.append(list);
  return log;
}

/** The run's messages, closed until asked for, narrowed to one node by a choice. */
function messageList(outcome: SeedOutcomeData, label: string): HTMLElement | null {
  const messages = outcome.nachrichten.slice(0, MAX_MESSAGES);
  if (messages.length === 0) return null;
  const details = element("details", "lk-challenge__messages");
  details.append(element("summary", "", messagesSummary(messages.length)));
  const choice = element("label", "lk-challenge__messages-filter", "Nur Nachrichten von und an ");
  const select = element("select");
  select.append(new Option("alle", ""));
  for (const node of messageNodes(messages)) select.append(new Option(shownText(node, 40), node));
  select.setAttribute("aria-label", `Nachrichten nur von und an: ${label}, Seed ${outcome.seed}`);
  choice.append(select);
  const count = element("p", "lk-challenge__messages-count", shownCount(messages.length, messages.length));
  count.setAttribute("aria-live", "polite");
  const list = element("ol", "lk-challenge__messages-list");
  const items = messages.map((message) => {
    const item = messageItem(message);
    list.append(item);
    return item;
  });
  select.addEventListener("change", () => {
    let shown = 0;
    messages.forEach((message, i) => {
      const visible = involves(message, select.value);
      items[i]!.hidden = !visible;
      if (visible) shown += 1;
    });
    count.textContent = shownCount(shown, messages.length);
  });
  details.append(choice, count, list);
  const more = leftOutMessages(outcome.nachrichten_weggelassen + outcome.nachrichten.length - messages.length);
  if (more) details.append(element("p", "lk-challenge__messages-more", more));
  return details;
}

function messageItem(message: RunMessage): HTMLLIElement {
  const item = element("li", "lk-challenge__message-item");
  item.append(element("span", "lk-challenge__message-head", messageHead(message)), " ");
  item.append(element("code", "lk-challenge__message-body", shownText(message.inhalt, MAX_BODY_CHARS)));
  return item;
}

/**
 * Each arrow of the picture (pysim draws a message as `<g class="nachricht">` with its text
 * as `<title>`) can be reached by keyboard: Tab from the picture's box goes to the first
 * arrow, the arrow keys (and Home, End) to the next, previous, first and last; one arrow at a
 * time is in the tab order, so Tab leaves the picture again. The message of the arrow that
 * has the focus, or that the pointer is over, stands in a line under the picture, which
 * stays in view at the bottom of the window while the picture is.
 */
function arrowsByKeyboard(box: HTMLElement): HTMLElement | null {
  const arrows = [...box.querySelectorAll<SVGGElement>("g.nachricht")];
  if (arrows.length === 0) return null;
  const hint = "Eine Nachricht ansehen: den Zeiger auf einen Pfeil, oder Tab ins Bild und dann die Pfeiltasten.";
  const caption = element("p", "lk-challenge__message", hint);
  caption.setAttribute("aria-live", "polite");
  arrows.forEach((arrow, i) => arrow.setAttribute("tabindex", i === 0 ? "0" : "-1"));
  const arrowOf = (target: EventTarget | null): SVGGElement | null =>
    target instanceof Element ? (target.closest<SVGGElement>("g.nachricht") ?? null) : null;
  const show = (arrow: SVGGElement | null): void => {
    const text = arrow?.querySelector("title")?.textContent ?? "";
    caption.textContent = text ? visibleBidi(text) : hint;
    caption.classList.toggle("lk-challenge__message--shown", text !== "");
  };
  const focused = (): SVGGElement | null => arrowOf(document.activeElement);
  box.addEventListener("keydown", (event) => {
    const arrow = arrowOf(event.target);
    if (arrow === null) return;
    const at = arrows.indexOf(arrow);
    const moves: Record<string, number> = { ArrowDown: at + 1, ArrowRight: at + 1, ArrowUp: at - 1, ArrowLeft: at - 1, Home: 0, End: arrows.length - 1 };
    const next = moves[event.key];
    if (next === undefined) return;
    event.preventDefault();
    const target = arrows[Math.max(0, Math.min(arrows.length - 1, next))]!;
    arrow.setAttribute("tabindex", "-1");
    target.setAttribute("tabindex", "0");
    target.focus();
  });
  box.addEventListener("focusin", (event) => show(arrowOf(event.target)));
  box.addEventListener("focusout", (event) => {
    if (arrowOf(event.relatedTarget) === null) show(null);
  });
  box.addEventListener("pointerover", (event) => {
    const arrow = arrowOf(event.target);
    if (arrow !== null) show(arrow);
  });
  box.addEventListener("pointerout", (event) => {
    if (arrowOf(event.target) !== null && arrowOf(event.relatedTarget) === null) show(focused());
  });
  return caption;
}
