/**
 * The one way the components make an element: a tag, its classes and its text.
 */

/** A new `<tag>` with `className` and `text` (each left unset when empty). */
export function element<K extends keyof HTMLElementTagNameMap>(tag: K, className = "", text = ""): HTMLElementTagNameMap[K] {
  const node = document.createElement(tag);
  if (className) node.className = className;
  if (text) node.textContent = text;
  return node;
}
