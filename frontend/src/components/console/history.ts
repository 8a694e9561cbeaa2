/** The command history of a console: ↑ goes back, ↓ forward, like a shell. */
export class History {
  private readonly entries: string[] = [];
  private position = 0;
  private draft = "";

  /** Remember a command that was run (no duplicates in a row, no empty lines). */
  push(command: string): void {
    if (command.trim() && this.entries[this.entries.length - 1] !== command) this.entries.push(command);
    this.position = this.entries.length;
    this.draft = "";
  }

  /** The older command, or null at the start. `current` is kept as the draft. */
  back(current: string): string | null {
    if (this.position === 0) return null;
    if (this.position === this.entries.length) this.draft = current;
    this.position -= 1;
    return this.entries[this.position] ?? null;
  }

  /** The newer command; past the newest, the draft that was being typed. */
  forward(): string | null {
    if (this.position >= this.entries.length) return null;
    this.position += 1;
    return this.position === this.entries.length ? this.draft : (this.entries[this.position] ?? null);
  }
}

/** The longest common prefix of some words ("" for none). */
export function commonPrefix(words: string[]): string {
  if (words.length === 0) return "";
  let prefix = words[0] ?? "";
  for (const word of words.slice(1)) {
    while (!word.startsWith(prefix)) prefix = prefix.slice(0, -1);
  }
  return prefix;
}
