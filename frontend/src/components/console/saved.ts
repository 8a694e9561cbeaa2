/**
 * The reader's console commands on a page, kept in localStorage so that a reload
 * restores every console's state: the simulations are deterministic, so running the
 * same commands again in the same order gives the same transcript, picture and state.
 *
 * Key: `lk:<site path>:consoles:<page path>` (runtime/storage.ts); value: the commands
 * in page order, each with its console's key and a hash of what the console starts
 * from (kind, options, setup). When the author changes a console, its hash changes
 * and nothing of the page is replayed: commands typed against another starting
 * state could mean something else now.
 */
import type { ConsoleData } from "../../generated/contract";
import { pagePath } from "../../runtime/page";
import { pageKeyPath, readItem, removeItem, siteKey, writeItem } from "../../runtime/storage";
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

export class SavedCommands {
  private readonly key: string;

  constructor(page: string = pagePath()) {
    this.key = siteKey("consoles", pageKeyPath(page));
  }

  /** The stored commands, or none (nothing stored, or not of the types written here). */
  load(): SavedCommand[] {
    try {
      const value: unknown = JSON.parse(readItem(this.key) ?? "[]");
      return Array.isArray(value) && value.every(isSavedCommand) ? value : [];
    } catch {
      return [];
    }
  }

  /** The commands that would be replayed on this page: all of them, or none when a
   * console they name is gone or starts from something else now. */
  replayable(consoles: Map<string, string>): SavedCommand[] {
    const saved = this.load();
    return saved.every((command) => consoles.get(command.key) === command.version) ? saved : [];
  }

  /** Keep `commands` (false when they are not kept); none: forget the page's. */
  save(commands: SavedCommand[]): boolean {
    if (commands.length === 0 || commands.length > MAX_SAVED) {
      removeItem(this.key);
      return commands.length === 0;
    }
    if (writeItem(this.key, JSON.stringify(commands))) return true;
    removeItem(this.key); // refused (quota): an older, shorter list would restore another state
    return false;
  }
}
