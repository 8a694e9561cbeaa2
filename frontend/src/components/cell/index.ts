/**
 * A runnable Python cell: mounts onto the markup that `lessonkit/build/render.py`
 * writes, adds the editor and the buttons, and runs code in the page's worker.
 *
 * Notebook semantics: cells of one session share a namespace. Running a cell
 * first runs the earlier cells of its session that have not run since Python
 * (re)started, so a reader can start anywhere on the page.
 *
 * Hidden checks of the prose (`check`, lessonkit/fences/__init__.py) run after the cell
 * they follow; when the reader's change makes one fail, the page says so kindly
 * and the next cell still runs (later cells need nothing from a check).
 */
import { FLOOD_TEXT, MEMORY_TEXT, type PythonRuntime, type RestartReason } from "../../runtime/python";
import { getBlocks } from "../blocks";
import { button } from "../controls";
import { storageWarning } from "../notice";
import { mountRunPanel, type RunPanel, type RunState } from "../run";
import type { CellEditor } from "./editor";
import { type Abandoned, type OrderedCell, type Prerequisites, runCellsBefore, runInOrder, type Verdict, verdictOf } from "./order";
import { DraftStore } from "./storage";
import type { CellData } from "../../generated/contract";

const RESTARTED: Record<RestartReason, string> = {
  stopp: "Python wurde neu gestartet, bevor diese Zelle fertig war (Stopp an einer anderen Stelle).",
  neustart: "Python wurde neu gestartet, bevor diese Zelle fertig war.",
  absturz:
    "Python ist bei diesem Lauf abgestürzt (zum Beispiel durch os._exit() oder eine sehr tiefe " +
    "Rekursion) und wurde neu gestartet.",
  beendet:
    "Dieser Lauf hat Python beendet (close() des Workers); Python wurde neu gestartet.",
  flut: FLOOD_TEXT,
  speicher: MEMORY_TEXT,
};

/** The status of a cell whose run Python ended on its own (the reader stopped nothing). */
const CRASHED: Partial<Record<RestartReason, string>> = {
  absturz: "Abgestürzt",
  beendet: "Beendet",
  flut: "Beendet: Nachrichtenflut",
  speicher: "Speicher voll",
};

/** One mounted cell: its code (an editor once near the viewport), its run panel, its draft. */
export class Cell implements OrderedCell {
  /** Ran since Python (re)started (a restart clears it, `forget`). */
  ran = false;

  private editor: CellEditor | null = null;
  private readonly panel: RunPanel;
  private readonly outputElement: HTMLOutputElement;
  private readonly buildOutput: Node[];
  private readonly drafts: DraftStore;
  private code: string;
  /** The editor takes a text another tab kept (`followOtherTabs`). */
  private following = false;

  constructor(
    readonly root: HTMLElement,
    readonly data: CellData,
    private readonly page: CellPage,
    private readonly runtime: PythonRuntime,
    index: number,
  ) {
    this.outputElement = root.querySelector<HTMLOutputElement>("output.lk-output")!;
    this.buildOutput = [...this.outputElement.childNodes];
    runtime.publish(this.data.code); // the author's code: running it keeps Python for the next page
    this.drafts = new DraftStore(location.pathname, index, this.data.code);
    this.code = this.drafts.load() ?? this.data.code;

    const label = this.data.label;
    this.panel = mountRunPanel(runtime, {
      output: this.outputElement,
      buttons: {
        run: { title: "Ausführen (Umschalt+Enter)", name: `${label} ausführen` },
        stop: { title: "Laufende Zelle stoppen", name: `Stopp: ${label}` },
        onRun: () => void this.page.run(this),
      },
      owner: this,
      stateOn: root,
      timed: true,
    });
    const reset = button(
      "Zurücksetzen",
      "lk-button--reset",
      "Code und Ergebnis der Autorin wiederherstellen",
      `${label} zurücksetzen`,
    );
    const bar = document.createElement("div");
    bar.className = "lk-cell__bar";
    bar.append(...this.panel.controls(reset));
    root.querySelector(".lk-cell__code")?.after(bar);

    reset.addEventListener("click", () => this.reset());
    this.followOtherTabs();
    root.dataset["lkMounted"] = "true";
    if (this.code !== this.data.code) {
      // The build's output below belongs to the author's code, not to the restored draft.
      this.panel.output.showNotice(
        "Deine geänderte Fassung dieser Zelle wurde wiederhergestellt. Das Ergebnis darunter " +
          "gehört noch zum ursprünglichen Code; „Ausführen“ zeigt das deiner Fassung, " +
          "„Zurücksetzen“ holt den ursprünglichen Code zurück.",
        "info",
        "start",
      );
      if (this.buildOutput.length > 0) this.outputElement.dataset["stale"] = "true";
    }
  }

  get label(): string {
    return this.data.label;
  }

  /**
   * The page open in another tab: what the reader types there into this cell is kept
   * under the same key, and shows here too (the `storage` event), so neither tab later
   * overwrites it with an older version it still shows. Said in the cell.
   */
  private followOtherTabs(): void {
    const follow = (event: StorageEvent): void => {
      if (!this.root.isConnected) {
        window.removeEventListener("storage", follow); // a page left by instant navigation
        return;
      }
      if (event.key !== this.drafts.key) return;
      const code = event.newValue ?? this.data.code;
      if (code === this.currentCode()) return;
      this.code = code;
      this.following = true;
      try {
        this.editor?.setCode(code);
      } finally {
        this.following = false;
      }
      this.root.querySelector(".lk-cell__tab-note")?.remove();
      this.panel.output.showNotice(
        code === this.data.code
          ? "In einem anderen Tab dieser Seite wurde die Zelle zurückgesetzt: Hier steht jetzt auch der ursprüngliche Code."
          : "In einem anderen Tab dieser Seite wurde diese Zelle geändert: Hier steht jetzt dieselbe Fassung. Das Ergebnis darunter gehört noch zur vorigen.",
        "info",
        "start",
      );
      this.outputElement.firstElementChild?.classList.add("lk-cell__tab-note");
    };
    window.addEventListener("storage", follow);
  }

  get hidden(): boolean {
    return this.data.hidden;
  }

  get check(): boolean {
    return this.data.check;
  }

  /** Replace the static code with the editor (loaded on demand). */
  async mountEditor(): Promise<void> {
    if (this.data.hidden) return;
    const { createEditor } = await import("./editor");
    const host = this.root.querySelector<HTMLElement>(".lk-cell__code");
    if (!host) return;
    host.replaceChildren();
    this.editor = createEditor(host, {
      code: this.code,
      label: this.data.label,
      onRun: () => void this.page.run(this),
      onChange: (code) => {
        this.code = code;
        // Taken from another tab: it is kept already, and writing it back could put an
        // older text over what that tab wrote since.
        if (this.following) return;
        if (code === this.data.code) this.drafts.clear();
        else if (!this.drafts.save(code)) this.page.warnStorage(this);
      },
    });
  }

  /** The code to run now: the reader's version. */
  currentCode(): string {
    return this.editor?.getCode() ?? this.code;
  }

  setState(state: RunState, detail = ""): void {
    this.panel.setState(state, detail);
  }

  queue(quiet: boolean): void {
    this.panel.setQuiet(quiet);
    this.panel.markQueued();
    if (!quiet && this.runtime.state !== "ready") this.panel.watchLoading();
  }

  unqueue(): void {
    this.setState("idle");
  }

  abandon(why: Abandoned): void {
    if (why.kind === "cancelled") this.setState("stopped", "Abgebrochen: Python lädt weiter, nichts ist verloren");
    else this.setState("error", `Abgebrochen: ${why.label} davor schlug fehl`);
  }

  /** Run this cell's code in the runtime (the page decides what runs first). */
  async execute(): Promise<Verdict> {
    const outcome = await this.panel.run({ session: this.data.session, code: this.currentCode(), label: this.data.label });
    if (outcome.kind === "done") this.ran = true;
    return verdictOf(outcome, this.data.raises);
  }

  /** Python was restarted: this cell's effects are gone; say so where it mattered. */
  forget(stoppedHere: boolean, reason: RestartReason): void {
    this.ran = false;
    const state = this.panel.state;
    const interrupted = state === "running" || state === "queued";
    const next = "Alle Variablen der Seite sind weg; beim nächsten Ausführen laufen die Zellen davor automatisch noch einmal.";
    if (stoppedHere) {
      this.panel.output.clear();
      this.panel.output.showNotice(`Gestoppt. Python wurde neu gestartet. ${next}`, "warning");
      this.setState("stopped");
    } else if (interrupted && !this.data.hidden) {
      this.panel.output.clear();
      this.panel.output.showNotice(`${RESTARTED[reason]} ${next}`, "warning");
      const crashed = CRASHED[reason];
      this.setState(crashed && state === "running" ? "error" : "stopped", crashed ?? "Gestoppt");
    } else if (state !== "idle") {
      this.setState("idle", "Python neu gestartet");
    }
  }

  /** A hidden check after this cell failed: the reader's change gives another result. */
  noteCheckFailed(): void {
    this.root.querySelector(".lk-cell__check-note")?.remove();
    const edited = this.currentCode() !== this.data.code;
    this.panel.output.showNotice(
      edited
        ? "Dein geänderter Code ergibt etwas anderes, als der Text beschreibt. Das ist kein " +
            "Fehler: Die nächsten Zellen laufen trotzdem, nur passen manche Zahlen im Text " +
            "dann nicht mehr. „Zurücksetzen“ holt den ursprünglichen Code zurück."
        : "Das Ergebnis weicht von dem ab, was der Text beschreibt, wohl wegen einer Änderung " +
            "weiter oben. Die nächsten Zellen laufen trotzdem.",
    );
    this.outputElement.lastElementChild?.classList.add("lk-cell__check-note");
  }

  private reset(): void {
    this.code = this.data.code;
    this.editor?.setCode(this.data.code);
    this.drafts.clear();
    this.outputElement.replaceChildren(...this.buildOutput.map((node) => node.cloneNode(true)));
    this.setState("idle");
  }
}

/** All cells of a page and the order in which they run. */
export class CellPage {
  readonly cells: Cell[] = [];
  private storageWarned = false;

  constructor(private readonly runtime: PythonRuntime) {
    // `by`: the cell whose Stopp caused the restart says so in its own words.
    runtime.onRestart((reason, by) => {
      for (const cell of this.cells) cell.forget(cell === by, reason);
    });
  }

  mount(scope: ParentNode): void {
    for (const [index, { root, data }] of getBlocks("cell", scope).entries()) {
      this.cells.push(new Cell(root, data, this, this.runtime, index));
    }
    if (this.cells.length === 0) return;
    this.mountEditorsWhenVisible();
  }

  /**
   * Swap in the editor only for cells near the viewport: a long lesson does not
   * build twenty editors at once while Python is starting.
   */
  private mountEditorsWhenVisible(): void {
    const byRoot = new Map(this.cells.map((cell) => [cell.root, cell]));
    const observer = new IntersectionObserver(
      (entries) => {
        for (const entry of entries) {
          if (!entry.isIntersecting) continue;
          observer.unobserve(entry.target);
          void byRoot.get(entry.target as HTMLElement)?.mountEditor();
        }
      },
      { rootMargin: "400px 0px" },
    );
    for (const cell of this.cells) observer.observe(cell.root);
  }

  /** Run `target` after the earlier cells of its session it needs, then its checks (./order.ts). */
  run(target: Cell): Promise<void> {
    return runInOrder(
      this.cells.filter((cell) => cell.data.session === target.data.session),
      target,
    );
  }

  /** Run, quietly, the cells of `session` above `element` that have not run since Python
   * (re)started: what a block placed there needs, as a prediction with `session` (./order.ts). */
  runCellsAbove(session: string, element: Element): Promise<Prerequisites> {
    const cells = this.cells.filter((cell) => cell.data.session === session);
    const above = cells.filter(
      (cell) => (cell.root.compareDocumentPosition(element) & Node.DOCUMENT_POSITION_FOLLOWING) !== 0,
    );
    return runCellsBefore(cells, above.length);
  }

  /** Once per page: the reader's changes cannot be kept. */
  warnStorage(cell: Cell): void {
    if (this.storageWarned) return;
    this.storageWarned = true;
    cell.root.querySelector("output")?.append(storageWarning("draft"));
  }
}

/** Mount every cell in `scope`. */
export function mountCells(scope: ParentNode, runtime: PythonRuntime): CellPage {
  const page = new CellPage(runtime);
  page.mount(scope);
  return page;
}
