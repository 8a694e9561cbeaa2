/**
 * Reads the data a block carries for the page script: JSON in the `data-lk-json`
 * attribute of a hidden element (lessonkit/pagedata.py writes it).
 */
export function readData<T>(root: ParentNode, selector: string, fallback: T): T {
  const text = root.querySelector<HTMLElement>(selector)?.dataset["lkJson"];
  return text === undefined ? fallback : (JSON.parse(text) as T);
}
