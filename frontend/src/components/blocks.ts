/**
 * The course's blocks on a page and the data each carries for the page script, named
 * once (like Material for MkDocs' component map, `getComponentElement`): a block's root
 * is `[data-lk-<kind>]`, its data JSON in the `data-lk-json` attribute of its hidden
 * child `.lk-<kind>__data` (lessonkit/build/pagedata.py writes it, lessonkit/build/contract.py
 * declares its shape). A block without its data is a build that does not match this
 * script: it throws, naming the block, instead of mounting a block with made-up data.
 */
import type { CellData, ConsoleData, ExerciseData, ProgressEntry, WorkbenchData } from "../generated/contract";

/** Each kind of block and the type of its data. */
interface BlockTypeMap {
  cell: CellData;
  console: ConsoleData;
  exercise: ExerciseData;
  progress: ProgressEntry[];
  werkbank: WorkbenchData;
}

export type BlockKind = keyof BlockTypeMap;

/** A block: its root element and its data. */
export interface Block<K extends BlockKind> {
  root: HTMLElement;
  data: BlockTypeMap[K];
}

/** The data of the block of `kind` at `root`; throws a ReferenceError when it has none. */
export function getBlock<K extends BlockKind>(kind: K, root: HTMLElement): Block<K> {
  const text = root.querySelector<HTMLElement>(`:scope > .lk-${kind}__data`)?.dataset["lkJson"];
  if (text === undefined) {
    const where = root.id ? `#${root.id}` : (root.querySelector(':scope > [class$="__head"]')?.textContent ?? "");
    throw new ReferenceError(`lessonkit: block [data-lk-${kind}] ${where} has no .lk-${kind}__data element`);
  }
  return { root, data: JSON.parse(text) as BlockTypeMap[K] };
}

/** The blocks of `kind` in `scope` not mounted yet, with their data, in page order. */
export function getBlocks<K extends BlockKind>(kind: K, scope: ParentNode = document): Block<K>[] {
  const roots = scope.querySelectorAll<HTMLElement>(`[data-lk-${kind}]:not([data-lk-mounted])`);
  return [...roots].map((root) => getBlock(kind, root));
}
