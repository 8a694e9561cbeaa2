/**
 * The reader's console commands on a page, kept in localStorage so that a reload
 * restores every console's state: the simulations are deterministic, so running the
 * same commands again in the same order gives the same transcript, picture and state.
 *
 * Key: `lk:<site path>:consoles:<page path>` (runtime/storage.ts); value: the commands
 * in page order, each with its console's key and a hash of what the console starts
 * from (kind, options, setup). When the author changes a console, its hash changes
 * and its commands are not replayed: typed against another starting state they could
 * mean something else now. Each console's state is its own, so the others replay.
 */
import type { ConsoleData } from "../../generated/contract";
import { pagePath } from "../../runtime/page";
import { earlierPagePaths, pageKeyPath, readItem, removeItem, siteKey, writeItem } from "../../runtime/storage";
import { hashText } from "../cell/storage";

export interface SavedCommand {
  /** The console (`ConsoleData.key`). */
  key: string;
  /** `consoleVersion` of that console when the command ran. */
  version: string;
  line: string;
}

/** What a console starts from, as a short hash. */
export function consoleVersion(data: Pick<ConsoleData, "kind" | "options" | "setup">): string {
  return hashText(JSON.stringify([data.kind, data.options, data.setup]));
}

function isSavedCommand(value: unknown): value is SavedCommand {
  if (typeof value !== "object" || value === null) return false;
  const { key, version, line } = value as Record<string, unknown>;
  return typeof key === "string" && typeof version === "string" && typeof line === "string";
}

/** The longest list that is kept: a reader's session is far shorter. Beyond it nothing is
 * kept (a reload starts from the author's state), never a part that would give another state. */
export const MAX_SAVED = 500;

/** A console on the page: its key and what it starts from (`consoleVersion`). */
type Consoles = Map<string, string>;

export class SavedCommands {
  /** Where the page's commands are kept (another tab of the page writes the same key). */
  readonly key: string;
  private readonly movedFrom: string[];
  /** Commands of consoles that are not on this page (they may stand on another page now):
   * kept as they are, never replayed here. */
  private foreign: SavedCommand[] = [];

  /** `earlier`: the page paths this page's consoles stood on before (`umgezogen`). */
  constructor(page: string = pagePath(), earlier: string[] = earlierPagePaths()) {
    this.key = siteKey("consoles", pageKeyPath(page));
    this.movedFrom = earlier.map((other) => siteKey("consoles", pageKeyPath(other)));
  }

  /** The stored commands, or none (nothing stored, or not of the types written here). */
  load(): SavedCommand[] {
    return parse(readItem(this.key));
  }

  /**
   * The commands replayed on this page: those of every console that is here and starts
   * from what it started from then. A console's state is its own (a session's consoles
   * share a key), so the others' commands do not change it. A console the author changed
   * loses its commands; those of a console that is not here are kept for its page.
   * With nothing stored here, the commands of consoles that moved here from a page named
   * by `umgezogen` move here (`moved`).
   */
  replayable(consoles: Consoles): SavedCommand[] {
    const saved = this.load();
    this.foreign = saved.filter((command) => !consoles.has(command.key));
    const ours = saved.filter((command) => consoles.get(command.key) === command.version);
    return ours.length > 0 || saved.length > 0 ? ours : this.moved(consoles);
  }

  /**
   * Commands of consoles that moved here, taken from the pages they stood on. An exercise's
   * console and a session keep their key on any page; a plain console's key names its
   * place on the page, so it is told by what it starts from: when exactly one console
   * here and one there (with commands) start so. Consoles that start alike cannot be
   * told apart; their commands stay where they were. (One that stayed on the old page
   * and starts like one that moved here is not seen from here: authors avoid that,
   * docs/autoren.md.)
   */
  private moved(consoles: Consoles): SavedCommand[] {
    const plain = (key: string): boolean => key.startsWith("console:");
    const moved: SavedCommand[] = [];
    for (const other of this.movedFrom) {
      const there = parse(readItem(other));
      const target = (command: SavedCommand): string | undefined => {
        if (!plain(command.key)) return consoles.get(command.key) === command.version ? command.key : undefined;
        const started = (keys: Iterable<[string, string]>): Set<string> =>
          new Set([...keys].filter(([key, version]) => plain(key) && version === command.version).map(([key]) => key));
        const here = started(consoles);
        const then = started(there.map((saved) => [saved.key, saved.version]));
        return here.size === 1 && then.size === 1 ? [...here][0] : undefined;
      };
      const taken = there.filter((command) => target(command) !== undefined);
      if (taken.length === 0) continue;
      const here = taken.map((command) => ({ ...command, key: target(command)! }));
      if (!this.write([...moved, ...here])) break;
      moved.push(...here);
      const left = there.filter((command) => !taken.includes(command));
      if (left.length > 0) writeItem(other, JSON.stringify(left));
      else removeItem(other);
    }
    return moved;
  }

  /** Keep `commands` (false when they are not kept); none: forget the page's. The
   * commands of consoles that are not among `consoles` (this page's) stay. */
  save(commands: SavedCommand[], consoles: Consoles): boolean {
    this.foreign = this.load().filter((command) => !consoles.has(command.key));
    if (commands.length > MAX_SAVED) {
      this.write([]);
      return false;
    }
    return this.write(commands);
  }

  private write(commands: SavedCommand[]): boolean {
    const all = [...commands, ...(this.foreign.length + commands.length <= MAX_SAVED ? this.foreign : [])];
    if (all.length === 0) {
      removeItem(this.key);
      return true;
    }
    if (writeItem(this.key, JSON.stringify(all))) return true;
    removeItem(this.key); // refused (quota): an older, shorter list would restore another state
    return false;
  }
}

function parse(text: string | null): SavedCommand[] {
  try {
    const value: unknown = JSON.parse(text ?? "[]");
    return Array.isArray(value) && value.every(isSavedCommand) ? value : [];
  } catch {
    return [];
  }
}
