/**
 * A challenge (`herausforderung`, lessonkit/runtime/challenges.py): the reader writes a node of a
 * distributed system; `Prüfen` runs it under the workload and faults once per seed, each
 * seed one call into Python (`challenge.seed`), so the page shows progress per seed
 * („12 von 40 Läufen bestanden …“) and stays responsive. The first seed that fails ends the
 * check (./seeds.ts): its verdict in German, the smallest failing run shrinking found, its
 * space-time picture with the witnesses, the figures and the run's identity, which
 * `Lauf wiederholen` opens again (`challenge.replay`); under the picture what the run's nodes
 * noted and printed and its messages (./runview.ts). The seeds that passed are one line.
 * `Weitere Läufe` runs the next seeds the same way, outside the verdict. `Ausführen` runs
 * the first seed and shows its picture without judging.
 */
import type { ChallengeData, SeedOutcomeData } from "../../generated/contract";
import type { PythonRuntime } from "../../runtime/python";
import { interruption, stoppedBy } from "../../runtime/python";
import { button, setAvailable, statusRegion } from "../controls";
import { sanitizeSvg } from "../output/render";
import { cappedOutcome } from "./capped";
import { figures } from "./figures";
import { runDetails } from "./runview";
import { MORE, moreVerdict, progressText, runSeeds, runs, type SeedsResult, seedRange } from "./seeds";
import { element } from "../dom";
import type { NodeLanguage } from "./language";

/** The reader's node as a check runs it: the editor's code and the language it is in. */
export interface NodeSource {
  code: string;
  sprache: NodeLanguage;
}

/** What a challenge needs of the exercise it lives in (./index.ts). */
export interface ChallengeHost {
  readonly root: HTMLElement;
  readonly data: ChallengeData;
  readonly runtime: PythonRuntime;
  /** The exercise, as its Stopp names it (`runtime.stopp(owner)`). */
  readonly owner: object;
  /**
   * Runs `step` as the exercise's one action (its buttons and Enter wait, Stopp is there;
   * `state` as the exercise's `data-state`); an interruption is told in the verdict's place,
   * ending with `again` ("prüf noch einmal"). Does nothing while another action runs.
   */
  act(step: () => Promise<void>, again: string, state: "checking" | "running"): Promise<void>;
  /** Removes the last check's verdict: what the page shows next replaces it. */
  clearVerdict(): void;
}

/** One seed's result: verdict, shrinking, figures, identity and picture. Every text is cut
 * to a size the page lays out at once, saying so (./capped.ts), whatever Python sent. */
export function seedResult(whole: SeedOutcomeData, label: string): HTMLElement {
  const outcome = cappedOutcome(whole);
  // A run without a verdict (Ausführen) is neither green nor red.
  const kind = outcome.ok === false ? "failed" : outcome.ok ? "ok" : "run";
  const item = element("section", `lk-challenge__seed lk-challenge__seed--${kind}`);
  item.setAttribute("aria-label", `${label}, Seed ${outcome.seed}`);
  if (outcome.error !== null) {
    item.append(element("p", "lk-challenge__head", "✗ Dein Code läuft nicht:"));
    item.append(element("pre", "lk-output__error", outcome.error));
    return item;
  }
  const head =
    outcome.ok === null
      ? `Seed ${outcome.seed}: gelaufen (ohne Urteil)`
      : outcome.ok
        ? `✓ Seed ${outcome.seed}: bestanden`
        : `✗ Seed ${outcome.seed}: nicht bestanden`;
  item.append(element("p", "lk-challenge__head", head));
  for (const sentence of outcome.urteil) item.append(element("p", "lk-challenge__verdict", sentence));
  if (outcome.ok === false && outcome.operationen_vorher !== null) {
    item.append(
      element(
        "p",
        "lk-challenge__shrunk",
        `Der kleinste Lauf, der noch scheitert: ${outcome.operationen} von ${outcome.operationen_vorher} Operationen.`,
      ),
    );
  }
  item.append(element("p", "lk-challenge__figures", figures(outcome)));
  const id = element("p", "lk-challenge__id", "Kennung: ");
  id.append(element("code", "", outcome.kennung));
  item.append(id);
  if (outcome.svg) {
    const box = picture(outcome, label);
    item.append(box, ...runDetails(outcome, label, box));
  }
  return item;
}

/**
 * The space-time picture at its own width at least (its text stays readable on a phone),
 * in a box that scrolls sideways when the page is narrower. The box can take the focus
 * (arrow keys scroll it) and has a name, as a scrollable region must.
 */
function picture(outcome: SeedOutcomeData, label: string): HTMLElement {
  const box = element("div", "lk-output__svg lk-challenge__picture");
  box.tabIndex = 0;
  box.setAttribute("role", "group");
  box.setAttribute("aria-label", `Raum-Zeit-Bild: ${label}, Seed ${outcome.seed} (seitlich scrollbar)`);
  const svg = sanitizeSvg(outcome.svg);
  box.append(svg);
  const drawing = box.querySelector("svg");
  const natural = drawing?.viewBox.baseVal?.width ?? 0;
  if (drawing && natural > 0) drawing.style.minWidth = `${natural}px`;
  return box;
}

export class Challenge {
  private readonly results: HTMLDivElement;
  private readonly status: HTMLSpanElement;
  private readonly replayInput: HTMLInputElement;
  /** What is wrong with the identity in the replay box (beside it, not in place of a result). */
  private readonly replayNote: HTMLParagraphElement;
  /** The first seed `Weitere Läufe` runs next: after those of the last check. */
  private nextSeed: number;
  /** No check or run is going on (`setAvailable`): only then may the replay box start one. */
  private idle = true;

  /** `source`: the reader's node as it is now (the editor's code and its language). */
  constructor(
    private readonly host: ChallengeHost,
    private readonly source: () => NodeSource,
  ) {
    this.nextSeed = host.data.vorgabe.seeds + 1;
    this.results = element("div", "lk-challenge__results");
    this.status = statusRegion("lk-cell__status");
    this.status.setAttribute("aria-live", "polite");
    const form = element("form", "lk-challenge__replay");
    this.replayInput = element("input", "lk-challenge__replay-input");
    this.replayInput.type = "text";
    this.replayInput.maxLength = 2000;
    this.replayInput.placeholder = "Kennung eines Laufs";
    this.replayInput.setAttribute("aria-label", `Kennung eines Laufs von ${host.data.label}`);
    this.replayNote = element("p", "lk-challenge__replay-note");
    this.replayNote.id = `${host.root.id}-kennung-hinweis`;
    this.replayNote.setAttribute("role", "status");
    this.replayNote.hidden = true;
    this.replayInput.addEventListener("input", () => this.noteOnReplay(""));
    const replay = button("Lauf wiederholen", "lk-button--small", "Den Lauf mit dieser Kennung noch einmal", `Lauf wiederholen: ${host.data.label}`);
    replay.type = "submit";
    const more = button(
      "Weitere Läufe",
      "lk-button--small lk-challenge__more",
      `Die nächsten ${MORE} Seeds laufen lassen; sie zählen nicht zum Urteil von „Prüfen“`,
      `Weitere Läufe: ${host.data.label}`,
    );
    more.addEventListener("click", () => {
      void this.host.act(() => this.more(), "starte die weiteren Läufe noch einmal", "checking");
    });
    form.append(this.replayInput, " ", replay, " ", more);
    // Enter in the box submits even while the button waits: the submit itself waits too.
    form.addEventListener("submit", (event) => {
      event.preventDefault();
      if (this.idle) void this.replay();
    });
    host.root.querySelector("output.lk-exercise__feedback")?.after(this.status, this.results, form, this.replayNote);
  }

  /** Empties what the last action showed: its results, its status, a note on the replay box. */
  clear(): void {
    this.results.replaceChildren();
    this.status.textContent = "";
    this.noteOnReplay("");
  }

  /** After Stopp or a restart no line may say that something still runs: the status says
   * how it ended (the verdict's place says why, ./index.ts). Returns `error` to throw on. */
  private interrupted(error: unknown): unknown {
    const outcome = interruption(error);
    this.status.textContent = stoppedBy(outcome, this.host.owner)
      ? "Gestoppt"
      : outcome.kind === "restarted" || outcome.kind === "cancelled"
        ? "Abgebrochen"
        : "Fehler";
    return error;
  }

  /** Says what is wrong with the identity in the replay box, beside it (or, with "", nothing). */
  private noteOnReplay(text: string): void {
    this.replayNote.textContent = text;
    this.replayNote.hidden = !text;
    if (text) {
      this.replayInput.setAttribute("aria-invalid", "true");
      this.replayInput.setAttribute("aria-describedby", this.replayNote.id);
    } else {
      this.replayInput.removeAttribute("aria-invalid");
      this.replayInput.removeAttribute("aria-describedby");
    }
  }

  /** One seed of `node`, judged, as the page shows it. */
  private judge(seed: number, node: NodeSource): Promise<SeedOutcomeData> {
    const { data, runtime } = this.host;
    return runtime.call("challenge.seed", {
      ...node,
      vorgabe: data.vorgabe,
      seed,
      pruefung: data.pruefung,
      urteilen: true,
    });
  }

  /** The seeds that passed as one line, then the one that failed (or the code's error). */
  private show(result: SeedsResult): void {
    if (result.passed > 0) {
      const last = result.first + result.passed - 1;
      const line = `✓ ${seedRange(result.first, last)}: ${result.passed === 1 ? "bestanden" : `alle ${runs(result.passed)} bestanden`}`;
      this.results.append(element("p", "lk-challenge__passed", line));
    }
    const shown = result.failed ?? result.error;
    if (shown) this.results.append(seedResult(shown, this.host.data.label));
  }

  /** Prüfen: the seeds 1..N of the code as it is now (an edit meanwhile waits for the next
   * check), one after the other, until one fails. */
  async check(): Promise<SeedsResult> {
    const total = this.host.data.vorgabe.seeds;
    const node = this.source();
    this.clear();
    this.nextSeed = total + 1;
    this.status.textContent = progressText(0, total);
    // Stopp restarts Python: the call in flight rejects and ends the loop (the exercise says so).
    let result: SeedsResult;
    try {
      result = await runSeeds(1, total, (seed) => this.judge(seed, node), (passed) => {
        this.status.textContent = progressText(passed, total);
      });
    } catch (error) {
      throw this.interrupted(error);
    }
    this.show(result);
    this.status.textContent =
      result.error !== null
        ? "Dein Code läuft nicht."
        : result.failed !== null
          ? `Seed ${result.failed.seed} scheitert (${result.passed} von ${runs(total, true)} bestanden).`
          : `${total} von ${runs(total, true)} bestanden.`;
    return result;
  }

  /** Weitere Läufe: the next seeds after the verdict's, shown the same way, outside it; they
   * replace what the page showed (the verdict too: its "unten" would point at them). */
  private async more(): Promise<void> {
    const first = this.nextSeed;
    const last = first + MORE - 1;
    const node = this.source();
    this.nextSeed = last + 1;
    this.host.clearVerdict();
    this.clear();
    this.status.textContent = `Weitere Läufe (${seedRange(first, last)}): ${progressText(0, MORE)}`;
    try {
      const result = await runSeeds(first, last, (seed) => this.judge(seed, node), (passed) => {
        this.status.textContent = `Weitere Läufe (${seedRange(first, last)}): ${progressText(passed, MORE)}`;
      });
      this.results.append(element("p", "lk-challenge__more-verdict", moreVerdict(result, last)));
      this.show(result);
      this.status.textContent = "Fertig";
    } catch (error) {
      throw this.interrupted(error);
    }
  }

  /** Ausführen: the first seed, its picture and figures, no verdict (the last one goes). */
  async run(): Promise<void> {
    const { data, runtime } = this.host;
    const node = this.source();
    await this.showRun("Seed 1 läuft …", () =>
      runtime.call("challenge.seed", { ...node, vorgabe: data.vorgabe, seed: 1, pruefung: data.pruefung, urteilen: false }),
    );
  }

  /** One run in place of what the page showed (the last verdict too): `running` meanwhile. */
  private async showRun(running: string, call: () => Promise<SeedOutcomeData>): Promise<void> {
    this.host.clearVerdict();
    this.clear();
    this.status.textContent = running;
    try {
      const outcome = await call();
      this.results.append(seedResult(outcome, this.host.data.label));
      this.status.textContent = outcome.error === null ? "Fertig" : "Fehler";
    } catch (error) {
      throw this.interrupted(error);
    }
  }

  /**
   * Lauf wiederholen: the run of the identity in the box, judged again. Python reads the
   * identity first (`challenge.check_id`, within the page's nodes, ticks and seeds): a wrong
   * one is named beside the box and changes nothing else. Otherwise its run replaces what the
   * page showed, the last verdict too.
   */
  private async replay(): Promise<void> {
    const kennung = this.replayInput.value.trim();
    if (!kennung) {
      this.noteOnReplay("Gib die Kennung eines Laufs ein (sie steht unter jedem Seed).");
      return;
    }
    const { data, runtime } = this.host;
    await this.host.act(async () => {
      const node = this.source();
      let wrong: string | null;
      try {
        wrong = await runtime.call("challenge.check_id", { vorgabe: data.vorgabe, kennung });
      } catch (error) {
        throw this.interrupted(error);
      }
      this.noteOnReplay(wrong === null ? "" : `Diese Kennung lässt sich hier nicht wiederholen: ${wrong}`);
      if (wrong !== null) return;
      await this.showRun("Der Lauf läuft noch einmal …", () =>
        runtime.call("challenge.replay", { ...node, vorgabe: data.vorgabe, kennung, pruefung: data.pruefung }),
      );
    }, "wiederhol den Lauf noch einmal", "running");
  }

  /** While a check or a run is going, the replay waits too (its button, and Enter in its box). */
  setAvailable(on: boolean): void {
    this.idle = on;
    for (const control of this.host.root.querySelectorAll<HTMLButtonElement>(".lk-challenge__replay button")) setAvailable(control, on);
  }
}
