/**
 * A command console (any kind pysim describes: log, queue, saga, …): mounts onto the markup of
 * lessonkit/build/render.py (render_console), adds a prompt line, and runs commands
 * in the page's Python worker through `lessonkit.runtime.bridge`.
 *
 * Enter runs, ↑/↓ walk the history, Tab completes commands, topic and group
 * names. A phone's keyboard has neither Tab nor arrow keys: with a touch screen
 * (`any-pointer: coarse`, docs/assets/lessonkit.css) buttons do the same
 * ("⇥ Ergänzen", ↑, ↓), and the hint under the console names what works with
 * the reader's pointer. `Zurücksetzen` restores the author's starting state.
 *
 * The console's state lives in Python. After a reload the reader's commands run again
 * (kept by ./saved.ts). When Python restarts (a `Stopp` anywhere,
 * "Python neu starten", a crash), the page runs the reader's commands again in
 * their order (`Journal`): the simulations are deterministic, so the state
 * matches the transcript again, and the console says so.
 *
 * Commands and `Zurücksetzen` keep the reader's order: a command typed before the
 * reset whose answer comes after it (it waited behind a running cell) is neither shown
 * nor recorded, and the console says it was dropped; Python ran it before the reset, so
 * state, transcript and the Journal agree.
 */
import type { ConsoleArgs, ConsoleData, ConsoleLineArgs } from "../../generated/contract";
import type { PythonRuntime } from "../../runtime/python";
import type { Interruption } from "../../runtime/python";
import { interruption, unavailableText, unfinishedText } from "../../runtime/python";
import { getBlocks } from "../blocks";
import { commonPrefix, History } from "./history";
import { consoleVersion, MAX_SAVED, SavedCommands } from "./saved";
import { shorten, Transcript } from "./transcript";

let counter = 0;

/** The longest line the input takes (twice pysim's `MAX_ZEILE`, so that Python still
 * refuses a longer one in its own words, "Die Zeile ist zu lang"). */
export const MAX_INPUT = 4000;

/** A command named in a note: short enough to read. */
const named = (line: string): string => shorten(line, 60);

/** Why the reader's command `line` did not run. */
function notRun(outcome: Interruption, line: string): string {
  switch (outcome.kind) {
    case "restarted":
      return `Python wurde neu gestartet, bevor „${named(line)}“ lief. Führ den Befehl bitte noch einmal aus.`;
    case "cancelled":
      return `Abgebrochen, bevor „${named(line)}“ lief: Python lädt weiter. Führ den Befehl bitte noch einmal aus.`;
    case "failed":
      return unfinishedText("diesen Befehl", outcome.message);
    case "unavailable":
      return unavailableText(outcome.message);
  }
}

/** The arguments of one `console.run` call, as the bridge takes them. */
type Command = ConsoleLineArgs;

/**
 * Every command the reader ran on this page, in order: replayed after a restart of
 * Python, and kept in localStorage (./saved.ts) so that a reload runs them again.
 */
class Journal {
  private commands: Command[] = [];
  private readonly consoles: CommandConsole[] = [];
  private readonly saved = new SavedCommands();
  /** Settles once the commands kept from before a reload have run again. */
  restored: Promise<void> = Promise.resolve();
  /** While they run, what is stored stays whole (a reload meanwhile restores all again). */
  private restoring = false;
  /** The commands are not kept (too many, or storage refused), and the consoles said so. */
  private unkept = false;
  /** How often each console's state was reset (`forget`): answers from before are stale. */
  private readonly resets = new Map<string, number>();

  /** Another tab of this page has kept its commands over this tab's, and the consoles said so. */
  private replacedElsewhere = false;

  constructor(private readonly runtime: PythonRuntime) {
    runtime.onRestart(() => void this.replay());
    const other = (event: StorageEvent): void => {
      if (this.consoles.length > 0 && !this.consoles[0]!.root.isConnected) {
        window.removeEventListener("storage", other); // a page left by instant navigation
        return;
      }
      if (event.key === this.saved.key) this.keptElsewhere();
    };
    window.addEventListener("storage", other);
  }

  /**
   * The page is open in another tab too, and that tab kept its commands (one list per
   * page): a reload, or a new visit, restores the other tab's. Nothing of this tab's is
   * lost unsaid: its consoles say so, once, and the next command here keeps this tab's.
   */
  private keptElsewhere(): void {
    if (this.replacedElsewhere) return;
    this.replacedElsewhere = true;
    for (const console of this.consoles) {
      if (!this.commands.some((command) => command.key === console.data.key)) continue;
      console.note(
        "Diese Seite ist auch in einem anderen Tab offen, und dort wurden Befehle gemerkt: Ein Neuladen " +
          "bringt die Befehle des Tabs zurück, in dem du zuletzt einen eingegeben hast. Dein nächster " +
          "Befehl hier merkt wieder alle Befehle dieses Tabs.",
      );
    }
  }

  add(console: CommandConsole): void {
    this.consoles.push(console);
  }

  record(command: Command): void {
    this.commands.push(command);
    if (!this.restoring) this.save();
  }

  /** `Zurücksetzen`: the console's state starts again from the author's setup. */
  forget(key: string): void {
    this.resets.set(key, this.generation(key) + 1);
    this.commands = this.commands.filter((command) => command.key !== key);
    this.save();
  }

  /** Changes with every reset of `key`: a command sent before one must not count after it. */
  generation(key: string): number {
    return this.resets.get(key) ?? 0;
  }

  private save(): void {
    const byKey = new Map(this.consoles.map((console) => [console.data.key, console.version]));
    const kept = this.saved.save(
      this.commands.map(({ key, line }) => ({ key, version: byKey.get(key) ?? "", line })),
      byKey,
    );
    if (kept) {
      this.unkept = false;
      this.replacedElsewhere = false;
    } else if (!this.unkept) {
      // Once, until they are kept again: a reload would otherwise restore nothing unsaid.
      this.unkept = true;
      const why =
        this.commands.length > MAX_SAVED
          ? `Mehr als ${MAX_SAVED} Befehle auf dieser Seite: Die Seite merkt sich deine Befehle nicht mehr.`
          : "Deine Befehle können in diesem Browser nicht gespeichert werden (Speicher voll oder gesperrt).";
      for (const console of this.consoles) {
        if (this.commands.some((command) => command.key === console.data.key)) {
          console.note(`${why} Nach dem Neuladen beginnt die Konsole beim Ausgangszustand; bis dahin bleibt alles, wie es ist.`);
        }
      }
    }
  }

  /** After a reload: run the commands kept from before, in their order, into their consoles. */
  restore(): void {
    const byKey = new Map(this.consoles.map((console) => [console.data.key, console]));
    const versions = new Map(this.consoles.map((console) => [console.data.key, console.version]));
    const commands = this.saved.replayable(versions);
    if (commands.length === 0) return;
    this.restoring = true;
    this.restored = (async () => {
      const ran = new Map<CommandConsole, number>();
      const generations = new Map(this.consoles.map((console) => [console.data.key, this.generation(console.data.key)]));
      for (const console of this.consoles) console.setBusy(true);
      try {
        for (const { key, line } of commands) {
          // Reset meanwhile: the rest of that console's commands from before are gone, too.
          if (this.generation(key) !== generations.get(key)) continue;
          const console = byKey.get(key)!;
          if (!(await console.runAgain(line, generations.get(key)!))) continue;
          ran.set(console, (ran.get(console) ?? 0) + 1);
        }
        for (const [console, n] of ran) {
          console.note(
            `${n === 1 ? "Dein Befehl von vorhin lief" : `Deine ${n} Befehle von vorhin liefen`} noch ` +
              "einmal: Die Konsole ist wieder im Zustand vor dem Neuladen. „Zurücksetzen“ beginnt neu.",
          );
        }
      } catch {
        for (const console of this.consoles) {
          console.note("Deine Befehle von vorhin ließen sich nicht wiederholen. Die Konsole beginnt beim Ausgangszustand.");
        }
      } finally {
        this.restoring = false;
        this.save();
        for (const console of this.consoles) console.setBusy(false);
      }
    })();
  }

  private async replay(): Promise<void> {
    const commands = this.commands;
    if (commands.length === 0) return;
    const count = (key: string): number => commands.filter((command) => command.key === key).length;
    const touched = this.consoles.filter((console) => count(console.data.key) > 0);
    try {
      await this.runtime.call("console.replay", { commands });
      for (const console of touched) {
        const n = count(console.data.key);
        console.note(
          `Python wurde neu gestartet. ${n === 1 ? "Dein Befehl lief" : `Deine ${n} Befehle liefen`} ` +
            "noch einmal, der Zustand passt wieder zum Verlauf.",
        );
      }
    } catch (error) {
      if (interruption(error).kind === "restarted") return; // restarted again: that restart replays
      this.commands = this.commands.filter((command) => !commands.includes(command));
      for (const console of touched) {
        console.note(
          "Python wurde neu gestartet, und deine Befehle ließen sich nicht wiederholen. " +
            "Die Konsole beginnt wieder beim Ausgangszustand; der Verlauf oben gilt nicht mehr.",
        );
      }
    }
  }
}

export class CommandConsole {
  private readonly input: HTMLInputElement;
  private readonly transcript: Transcript;
  private readonly history = new History();
  private readonly initialLog: Node[];
  private readonly initialPicture: Node[];
  private readonly log: HTMLElement;
  private readonly picture: HTMLElement;

  constructor(
    readonly root: HTMLElement,
    readonly data: ConsoleData,
    private readonly runtime: PythonRuntime,
    private readonly journal: Journal,
  ) {
    this.log = root.querySelector<HTMLElement>(".lk-console__log")!;
    this.picture = root.querySelector<HTMLElement>(".lk-console__picture")!;
    this.initialLog = [...this.log.childNodes].map((node) => node.cloneNode(true));
    this.initialPicture = [...this.picture.childNodes].map((node) => node.cloneNode(true));
    this.transcript = new Transcript(this.log, this.picture);

    const id = `lk-console-input-${++counter}`;
    const label = this.data.label;
    const form = document.createElement("form");
    form.className = "lk-console__prompt";
    form.innerHTML =
      `<label class="lk-console__label" for="${id}">Befehl für ${label}</label>` +
      `<span class="lk-console__sign" aria-hidden="true">$</span>` +
      `<input id="${id}" class="lk-console__input" type="text" autocomplete="off" ` +
      `autocapitalize="off" spellcheck="false" enterkeyhint="send" placeholder="hilfe" ` +
      `maxlength="${MAX_INPUT}" ` +
      `aria-describedby="${id}-hint">` +
      `<button type="submit" class="lk-button lk-button--run">Ausführen</button>` +
      // For touch screens, which have no Tab and no arrow keys (shown by lessonkit.css).
      `<button type="button" class="lk-button lk-button--touch lk-console__complete">` +
      `<span aria-hidden="true">⇥ </span>Ergänzen</button>` +
      `<button type="button" class="lk-button lk-button--touch lk-console__back">↑</button>` +
      `<button type="button" class="lk-button lk-button--touch lk-console__forward">↓</button>` +
      `<button type="button" class="lk-button lk-button--reset">Zurücksetzen</button>`;
    // Names with the console's label: a lesson has many "Ausführen" and "Zurücksetzen".
    const name = (selector: string, text: string): HTMLButtonElement => {
      const button = form.querySelector<HTMLButtonElement>(selector)!;
      button.setAttribute("aria-label", text);
      return button;
    };
    name(".lk-button--run", `Befehl ausführen: ${label}`);
    const reset = name(".lk-button--reset", `${label} zurücksetzen`);
    const touch = [
      [name(".lk-console__complete", `Befehl ergänzen: ${label}`), () => void this.complete()],
      [name(".lk-console__back", `Vorheriger Befehl: ${label}`), () => this.recall("back")],
      [name(".lk-console__forward", `Nächster Befehl: ${label}`), () => this.recall("forward")],
    ] as const;
    // What works with the reader's pointer; lessonkit.css shows one of the two.
    const hint = document.createElement("p");
    hint.className = "lk-console__hint";
    hint.id = `${id}-hint`;
    hint.innerHTML =
      `<span class="lk-hint--keys">Enter führt aus · ↑ ↓ holen frühere Befehle zurück · ` +
      `Tab ergänzt Befehle und Namen</span>` +
      `<span class="lk-hint--touch">⇥ ergänzt Befehle und Namen · ` +
      `↑ ↓ holen frühere Befehle zurück</span>`;
    this.log.after(form, hint);
    this.input = form.querySelector<HTMLInputElement>("input")!;
    form.addEventListener("submit", (event) => {
      event.preventDefault();
      void this.submit();
    });
    reset.addEventListener("click", () => void this.reset());
    for (const [button, action] of touch) {
      // A tap leaves the focus, and so a phone's keyboard, in the input line if it was there.
      let refocus = false;
      button.addEventListener("pointerdown", (event) => {
        refocus = document.activeElement === this.input;
        event.preventDefault();
      });
      button.addEventListener("click", () => {
        action();
        if (refocus) this.input.focus();
        refocus = false;
      });
    }
    this.input.addEventListener("keydown", (event) => this.onKey(event));
    root.dataset["lkMounted"] = "true";
    root.dataset["state"] = "idle";
    journal.add(this);
  }

  /** What this console starts from (./saved.ts). */
  get version(): string {
    return consoleVersion(this.data);
  }

  /** A line from the page itself in the transcript. */
  note(text: string): void {
    this.transcript.note(text);
  }

  setBusy(busy: boolean): void {
    this.root.dataset["state"] = busy ? "busy" : "idle";
  }

  /** A command kept from before a reload: run it again, into the transcript and history
   * (false: the console was reset since `generation`, and it counts no more). */
  async runAgain(line: string, generation: number): Promise<boolean> {
    this.history.push(line);
    const args: Command = { ...this.args(), line };
    const result = await this.runtime.call("console.run", args);
    if (this.journal.generation(this.data.key) !== generation) return false;
    this.journal.record(args);
    this.transcript.append(line, result);
    return true;
  }

  /** Which console, as every console call names it. */
  private args(): ConsoleArgs {
    const { key, kind, options, setup } = this.data;
    return { key, kind, options, setup };
  }

  /** Run what is in the input line. */
  async submit(): Promise<void> {
    // The page may set a longer value than `maxlength` lets a reader type or paste: what is
    // sent is cut (Python refuses it as too long); the transcript shows its real length.
    const typed = this.input.value;
    if (!typed.trim()) return;
    const line = typed.slice(0, MAX_INPUT);
    this.history.push(line);
    this.input.value = "";
    const generation = this.journal.generation(this.data.key);
    await this.journal.restored; // the commands from before a reload come first
    if (this.journal.generation(this.data.key) !== generation) {
      this.transcript.note(`„${named(line)}“ lief nicht: Du hast die Konsole vorher zurückgesetzt.`);
      return;
    }
    this.root.dataset["state"] = "busy";
    try {
      const args: Command = { ...this.args(), line };
      const result = await this.runtime.call("console.run", args);
      if (this.journal.generation(this.data.key) !== generation) {
        // Typed before `Zurücksetzen`, answered after it: the reset came later and wins.
        this.transcript.note(
          `„${named(line)}“ lief noch vor dem Zurücksetzen und gilt nicht mehr: ` +
            "Die Konsole ist im Ausgangszustand.",
        );
        return;
      }
      this.journal.record(args);
      this.transcript.append(typed, result);
    } catch (error) {
      this.transcript.note(notRun(interruption(error), line));
    } finally {
      this.root.dataset["state"] = "idle";
    }
  }

  private onKey(event: KeyboardEvent): void {
    if (event.key === "ArrowUp" || event.key === "ArrowDown") {
      if (this.recall(event.key === "ArrowUp" ? "back" : "forward")) event.preventDefault();
    } else if (event.key === "Tab" && !event.shiftKey && this.input.value.trim()) {
      // Tab completes while there is something to complete; otherwise it moves focus as usual.
      event.preventDefault();
      void this.complete();
    }
  }

  /** An earlier (`back`) or later command into the input line; false when there is none. */
  private recall(direction: "back" | "forward"): boolean {
    const next = direction === "back" ? this.history.back(this.input.value) : this.history.forward();
    if (next === null) return false;
    this.input.value = next;
    this.input.setSelectionRange(next.length, next.length);
    return true;
  }

  private async complete(): Promise<void> {
    const line = this.input.value;
    const candidates = await this.runtime.call("console.complete", { ...this.args(), line });
    if (this.input.value !== line || candidates.length === 0) return;
    const start = line.search(/\S*$/);
    const prefix = commonPrefix(candidates);
    const word = line.slice(start);
    if (candidates.length === 1) {
      this.input.value = `${line.slice(0, start)}${candidates[0]} `;
    } else if (prefix.length > word.length) {
      this.input.value = line.slice(0, start) + prefix;
    } else {
      this.transcript.note(`Möglich: ${candidates.join("  ")}`);
    }
  }

  /** Back to the author's starting state (for every console of the same session). */
  async reset(): Promise<void> {
    this.log.replaceChildren(...this.initialLog.map((node) => node.cloneNode(true)));
    this.picture.replaceChildren(...this.initialPicture.map((node) => node.cloneNode(true)));
    this.input.value = "";
    this.journal.forget(this.data.key);
    try {
      await this.runtime.call("console.reset", { key: this.data.key });
    } catch {
      // Python not running: nothing to reset.
    }
    this.input.focus();
  }
}

/** Mount every console in `scope`. */
export function mountConsoles(scope: ParentNode, runtime: PythonRuntime): CommandConsole[] {
  const journal = new Journal(runtime);
  const consoles = getBlocks("console", scope).map(({ root, data }) => new CommandConsole(root, data, runtime, journal));
  journal.restore();
  return consoles;
}
