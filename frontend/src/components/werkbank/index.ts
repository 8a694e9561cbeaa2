/**
 * The workbench (`werkbank`, lessonkit/fences/workbench.py): the reader picks a workload, the
 * number of nodes and the faults, writes a node and runs it.
 *
 * The block's static text (what it offers, for a page without JavaScript) gives way to a
 * form and an editor. `Ausführen` runs the form's seed once, judged, and shows it whole:
 * verdict, figures, identity and the space-time picture. `Prüfen` runs the seeds 1 to N
 * one after the other (one call into Python each, ../exercise/seeds.ts `runSeeds`), counts
 * „x von N Läufen bestanden …“ and stops at the first that fails, shown shrunk as on a
 * challenge. `Stopp` restarts Python, as an exercise's does. Every choice goes to Python as
 * text (`workbench.seed`), which names each bad one in German and then runs nothing.
 * Choices and one draft per workload are kept in localStorage (./form.ts).
 */
import type { SeedOutcomeData, WorkbenchData, WorkbenchOutcomeData, WorkbenchProblem } from "../../generated/contract";
import { interruption, type PythonRuntime, stoppedBy, unavailableText, unfinishedText } from "../../runtime/python";
import { type Block, getBlocks } from "../blocks";
import type { CellEditor } from "../cell/editor";
import { button, confirmInPage, setAvailable, statusRegion } from "../controls";
import { seedResult } from "../exercise/challenge";
import { progressText, runSeeds, type SeedsResult } from "../exercise/seeds";
import { storageWarning } from "../notice";
import { restartButton } from "../restart";
import {
  type Choices,
  checkLine,
  codeFor,
  type Kept,
  loadKept,
  optionsFrom,
  saveKept,
  seedsToCheck,
  startOf,
  switchWorkload,
  withDraft,
} from "./form";
import { element } from "../dom";

/** The choices were refused by Python: nothing ran. */
class BadChoices extends Error {
  constructor(readonly problems: WorkbenchProblem[]) {
    super("workbench: bad choices");
  }
}

let workbenches = 0;

/** A labelled number field of the form. */
interface NumberField {
  name: keyof Omit<Choices, "last" | "stoerungen">;
  min: number;
  max: number;
  unit?: string;
}

class Werkbank {
  private readonly number = ++workbenches;
  private kept: Kept;
  private editor: CellEditor | null = null;
  private readonly form: HTMLFormElement;
  private readonly select: HTMLSelectElement;
  private readonly about: HTMLParagraphElement;
  private readonly inputs = new Map<string, HTMLInputElement>();
  private readonly kinds = new Map<string, HTMLInputElement>();
  private readonly codeHost: HTMLDivElement;
  private readonly problems: HTMLUListElement;
  private readonly runButton: HTMLButtonElement;
  private readonly checkButton: HTMLButtonElement;
  private readonly stopButton: HTMLButtonElement;
  private readonly resetButton: HTMLButtonElement;
  private readonly bar: HTMLDivElement;
  private readonly status: HTMLSpanElement;
  private readonly verdict: HTMLParagraphElement;
  private readonly setup: HTMLParagraphElement;
  private readonly results: HTMLDivElement;
  private busy = false;
  private warned = false;

  constructor(
    private readonly root: HTMLElement,
    private readonly data: WorkbenchData,
    private readonly runtime: PythonRuntime,
  ) {
    this.kept = loadKept(data);
    const label = (field: string): string => data.felder[field] ?? field;
    this.form = element("form", "lk-werkbank__form");
    this.form.noValidate = true; // Python names what is wrong, in German
    this.form.setAttribute("aria-label", "Werkbank: Last, Knoten und Störungen");

    // The workload, with what its checker checks and its challenge.
    const workload = element("div", "lk-werkbank__field lk-werkbank__field--last");
    this.select = element("select");
    this.select.id = this.id("last");
    this.select.name = "last";
    for (const choice of data.lasten) {
      const option = element("option", "", choice.name);
      option.value = choice.name;
      this.select.append(option);
    }
    this.about = element("p", "lk-werkbank__about");
    this.about.id = this.id("last-about");
    this.select.setAttribute("aria-describedby", this.about.id);
    workload.append(this.labelFor("last", label("last")), this.select, this.about);

    // Nodes, ticks, windows, loss, seed and runs.
    const numbers = element("div", "lk-werkbank__numbers");
    const g = data.grenzen;
    const fields: NumberField[] = [
      { name: "knoten", min: 1, max: g.max_knoten },
      { name: "dauer", min: g.min_dauer, max: g.max_dauer, unit: "Ticks" },
      { name: "anzahl_stoerungen", min: 1, max: g.max_fenster },
      { name: "verlust_prozent", min: 0, max: 100, unit: "%" },
      { name: "seed", min: 1, max: g.max_seed },
      { name: "seeds", min: 1, max: g.max_seeds },
    ];
    for (const field of fields) numbers.append(this.numberField(field, label(field.name)));

    // The fault kinds.
    const faults = element("fieldset", "lk-werkbank__faults");
    faults.id = this.id("stoerungen");
    faults.append(element("legend", "", label("stoerungen")));
    const note = element("p", "lk-werkbank__hint", "Keine angekreuzt: ohne Störungen. Gezielte Störungen warten auf ein Schreiben eines Clients.");
    faults.append(note);
    const list = element("div", "lk-werkbank__kinds");
    for (const kind of data.stoerungen) {
      const row = element("label", "lk-werkbank__kind");
      const box = element("input");
      box.type = "checkbox";
      box.name = "stoerungen";
      box.value = kind.name;
      this.kinds.set(kind.name, box);
      const name = element("code", "", kind.name);
      const text = element("span", "lk-werkbank__kind-text", `${kind.gezielt ? "gezielt: " : ""}${kind.text}`);
      row.append(box, " ", name, " ", text);
      list.append(row);
    }
    faults.append(list);

    this.problems = element("ul", "lk-werkbank__problems");
    this.problems.id = this.id("problems");
    this.problems.hidden = true;
    this.form.append(workload, numbers, faults);
    this.form.addEventListener("submit", (event) => {
      event.preventDefault(); // Enter in a field: Ausführen, unless something runs
      if (!this.busy) void this.act("run");
    });
    this.form.addEventListener("change", () => this.keepChoices());
    this.form.addEventListener("input", () => this.keepChoices());
    this.select.addEventListener("change", () => this.switchTo(this.select.value));

    // The code.
    this.codeHost = element("div", "lk-exercise__code lk-werkbank__code"); // the editor's look (lessonkit.css)
    const staticCode = element("pre");
    staticCode.append(element("code", "", codeFor(this.kept, data, this.kept.choices.last)));
    this.codeHost.append(staticCode);

    // The buttons and what they say.
    this.runButton = button("Ausführen", "lk-button--try", "Den Seed des Formulars laufen lassen und beurteilen (Umschalt+Enter im Editor)", "Werkbank: ausführen");
    this.checkButton = button("Prüfen", "lk-button--run", "Die Seeds 1 bis N laufen lassen, bis einer scheitert", "Werkbank: prüfen");
    this.stopButton = button("Stopp", "lk-button--stop", "Lauf stoppen (Python startet neu)", "Stopp: Werkbank");
    this.resetButton = button("Startcode", "lk-button--reset", "Den Startcode dieser Last zurückholen (fragt vorher)", "Werkbank: Startcode dieser Last zurückholen");
    setAvailable(this.stopButton, false);
    this.runButton.addEventListener("click", () => void this.act("run"));
    this.checkButton.addEventListener("click", () => void this.act("check"));
    this.stopButton.addEventListener("click", () => runtime.stopp(this));
    this.resetButton.addEventListener("click", () => void this.reset());
    this.status = statusRegion("lk-cell__status lk-werkbank__status");
    this.bar = element("div", "lk-exercise__bar lk-werkbank__bar");
    this.bar.append(this.runButton, this.checkButton, this.stopButton, this.resetButton, this.status);
    this.verdict = element("p", "lk-feedback lk-werkbank__verdict");
    this.verdict.hidden = true;
    this.setup = element("p", "lk-challenge__setup lk-werkbank__setup");
    this.setup.hidden = true;
    this.results = element("div", "lk-challenge__results lk-werkbank__results");

    root.querySelector(".lk-werkbank__offer")?.remove();
    // What Python refused stands right above the buttons the reader just pressed.
    root.append(this.form, this.codeHost, this.problems, this.bar, this.verdict, this.setup, this.results);
    this.showChoices(this.kept.choices);
    root.dataset["lkMounted"] = "true";
    void this.mountEditor();
  }

  private id(part: string): string {
    return `lk-werkbank-${this.number}-${part}`;
  }

  private labelFor(field: string, text: string): HTMLLabelElement {
    const node = element("label", "", text);
    node.htmlFor = this.id(field);
    return node;
  }

  private numberField(field: NumberField, text: string): HTMLElement {
    const box = element("div", "lk-werkbank__field");
    const input = element("input");
    input.type = "number";
    input.inputMode = "numeric";
    input.id = this.id(field.name);
    input.name = field.name;
    input.min = String(field.min);
    input.max = String(field.max);
    input.step = "1";
    this.inputs.set(field.name, input);
    box.append(this.labelFor(field.name, field.unit ? `${text} (${field.unit})` : text), input);
    return box;
  }

  /** Put `choices` into the form. */
  private showChoices(choices: Choices): void {
    this.select.value = choices.last;
    this.describe(choices.last);
    for (const [name, input] of this.inputs) input.value = choices[name as keyof Omit<Choices, "last" | "stoerungen">];
    for (const [name, box] of this.kinds) box.checked = choices.stoerungen.includes(name);
  }

  /** The form's choices as the reader has them now. */
  private choices(): Choices {
    const text = (name: string): string => this.inputs.get(name)?.value ?? "";
    return {
      last: this.select.value,
      knoten: text("knoten"),
      dauer: text("dauer"),
      stoerungen: [...this.kinds].filter(([, box]) => box.checked).map(([name]) => name),
      anzahl_stoerungen: text("anzahl_stoerungen"),
      verlust_prozent: text("verlust_prozent"),
      seed: text("seed"),
      seeds: text("seeds"),
    };
  }

  /** What the chosen workload's checker checks, and its challenge. */
  private describe(last: string): void {
    const choice = this.data.lasten.find((workload) => workload.name === last);
    this.about.replaceChildren();
    if (!choice) return;
    this.about.append(`${choice.prueft} `);
    const link = element("a", "", choice.titel);
    link.href = choice.seite;
    this.about.append("(", link, ")");
  }

  private code(): string {
    return this.editor?.getCode() ?? codeFor(this.kept, this.data, this.kept.choices.last);
  }

  private store(): void {
    if (saveKept(this.kept) || this.warned) return;
    this.warned = true;
    this.bar.after(storageWarning("draft", "lk-werkbank__storage"));
  }

  private keepChoices(): void {
    // The workload changes only through switchTo (its drafts move with it).
    this.kept = { ...this.kept, choices: { ...this.choices(), last: this.kept.choices.last } };
    this.store();
  }

  /** Another workload: the code left stays as its draft; the new one's draft or start comes. */
  private switchTo(last: string): void {
    const from = this.kept.choices.last;
    if (last === from) return;
    const switched = switchWorkload(this.kept, this.data, from, this.code(), last);
    this.kept = { ...switched.kept, choices: { ...this.choices(), last } };
    this.store();
    this.describe(last);
    this.editor?.setCode(switched.code);
    // The last result was another workload's; a run still going keeps its status and result.
    if (!this.busy) this.clearResults();
  }

  private async mountEditor(): Promise<void> {
    const { createEditor } = await import("../cell/editor");
    this.codeHost.replaceChildren();
    this.editor = createEditor(this.codeHost, {
      code: codeFor(this.kept, this.data, this.kept.choices.last),
      label: "Werkbank",
      onRun: () => {
        if (!this.busy) void this.act("run");
      },
      onChange: (code) => {
        this.kept = withDraft(this.kept, this.data, this.kept.choices.last, code);
        this.store();
      },
    });
  }

  /** "Startcode": the workload's starting code replaces the reader's, after asking. */
  private async reset(): Promise<void> {
    const last = this.kept.choices.last;
    const yes = await confirmInPage(this.resetButton, this.bar, {
      question: `Deinen Code für „${last}“ durch den Startcode ersetzen? Dein Entwurf für diese Last ist dann weg.`,
      yes: "Ja, Startcode",
      no: "Nein, behalten",
      label: "Werkbank",
    });
    if (!yes) return;
    this.editor?.setCode(startOf(this.data, last));
    this.kept = withDraft(this.kept, this.data, last, startOf(this.data, last));
    this.store();
    this.editor?.focus();
  }

  private setBusy(on: boolean): void {
    this.busy = on;
    for (const control of [this.runButton, this.checkButton, this.resetButton]) setAvailable(control, !on);
    setAvailable(this.stopButton, on);
    this.root.dataset["state"] = on ? "running" : "idle";
  }

  private clearResults(): void {
    this.results.replaceChildren();
    this.verdict.hidden = true;
    this.verdict.textContent = "";
    this.setup.hidden = true;
    this.setup.textContent = "";
    this.status.textContent = "";
  }

  /** Python's German sentences beside the fields they are about; nothing ran. */
  private showProblems(problems: WorkbenchProblem[]): void {
    this.problems.replaceChildren(...problems.map((problem) => element("li", "", problem.text)));
    this.problems.hidden = problems.length === 0;
    const bad = new Set(problems.map((problem) => problem.feld));
    const fields: [string, HTMLElement][] = [["last", this.select], ...this.inputs];
    for (const [name, field] of fields) {
      // A refused field is marked and described by the sentences (read with the field).
      const described = name === "last" ? [this.about.id] : [];
      if (bad.has(name)) {
        field.setAttribute("aria-invalid", "true");
        described.push(this.problems.id);
      } else {
        field.removeAttribute("aria-invalid");
      }
      if (described.length > 0) field.setAttribute("aria-describedby", described.join(" "));
      else field.removeAttribute("aria-describedby");
    }
    const faults = this.form.querySelector("fieldset");
    if (bad.has("stoerungen")) faults?.setAttribute("aria-invalid", "true");
    else faults?.removeAttribute("aria-invalid");
  }

  /** One seed through Python; BadChoices when the choices were refused. */
  private async seed(code: string, options: Record<string, string>, pruefen: boolean): Promise<SeedOutcomeData> {
    const outcome: WorkbenchOutcomeData = await this.runtime.call("workbench.seed", { code, optionen: options, pruefen });
    if (outcome.fehler.length > 0 || outcome.ergebnis === null) throw new BadChoices(outcome.fehler);
    if (this.setup.hidden) {
      this.setup.textContent = `Gelaufen: ${outcome.beschreibung}`;
      this.setup.hidden = false;
    }
    return outcome.ergebnis;
  }

  /** Ausführen or Prüfen, one at a time; what ended it is said in place of a stale line. */
  private async act(what: "run" | "check"): Promise<void> {
    if (this.busy) return;
    const choices = this.choices();
    const code = this.code();
    this.setBusy(true);
    this.clearResults();
    this.showProblems([]);
    try {
      if (what === "run") await this.run(code, choices);
      else await this.check(code, choices);
    } catch (error) {
      this.verdict.hidden = true;
      if (error instanceof BadChoices) {
        this.showProblems(error.problems);
        this.status.textContent = "Nichts ist gelaufen: Bitte die markierten Angaben ändern.";
        return;
      }
      const outcome = interruption(error);
      this.results.replaceChildren();
      this.setup.hidden = true;
      if ((outcome.kind === "restarted" || outcome.kind === "cancelled") && stoppedBy(outcome, this)) {
        this.status.textContent = "Gestoppt. Python wurde neu gestartet; dein Code und deine Wahl sind noch da.";
      } else if (outcome.kind === "restarted" || outcome.kind === "cancelled") {
        this.status.textContent = "Python wurde neu gestartet, bevor das fertig war. Bitte noch einmal.";
      } else {
        this.status.textContent = outcome.kind === "failed" ? unfinishedText("das", outcome.message) : unavailableText(outcome.message);
        if (outcome.kind === "failed") this.status.after(restartButton(this.runtime));
      }
    } finally {
      this.setBusy(false);
    }
  }

  /** Ausführen: the form's seed, judged, whole, with its picture. */
  private async run(code: string, choices: Choices): Promise<void> {
    this.status.textContent = `Seed ${choices.seed.trim()} läuft …`;
    const outcome = await this.seed(code, optionsFrom(choices, this.data), false);
    this.results.append(seedResult(outcome, "Werkbank"));
    this.status.textContent = outcome.error === null ? "Fertig" : "Fehler";
  }

  /** Prüfen: the seeds 1..N until one fails; the passed ones in one line, the failing one shrunk. */
  private async check(code: string, choices: Choices): Promise<void> {
    const total = seedsToCheck(choices, this.data);
    this.status.textContent = progressText(0, total);
    const result: SeedsResult = await runSeeds(
      1,
      total,
      (seed) => this.seed(code, optionsFrom(choices, this.data, seed), true),
      (passed) => {
        this.status.textContent = progressText(passed, total);
      },
    );
    const line = checkLine(result, total);
    this.verdict.textContent = line.text;
    this.verdict.className = `lk-feedback lk-werkbank__verdict lk-feedback--${line.passed ? "right" : "wrong"}`;
    this.verdict.hidden = false;
    const shown = result.failed ?? result.error;
    if (shown) this.results.append(seedResult(shown, "Werkbank"));
    this.status.textContent = "Fertig";
  }
}

/** Mount every workbench in `scope` (a page has at most one). */
export function mountWerkbank(scope: ParentNode, runtime: PythonRuntime): number {
  const blocks: Block<"werkbank">[] = getBlocks("werkbank", scope);
  for (const { root, data } of blocks) new Werkbank(root, data, runtime);
  return blocks.length;
}
