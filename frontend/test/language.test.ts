import { documentEvents, storage } from "./fakes";
import assert from "node:assert/strict";
import { beforeEach, test } from "node:test";
import { chooseLanguage, onLanguageChange, storedLanguage } from "../src/components/exercise/language";
import { typeErrors } from "../src/components/exercise/type-errors";

// Another tab's change arrives as a `storage` event on window (here: an EventTarget of its own).
const windowEvents = new EventTarget();
Object.assign(globalThis, { addEventListener: windowEvents.addEventListener.bind(windowEvents) });

beforeEach(() => {
  storage.clear();
  storage.broken = false;
});

test("Python until the reader picks TypeScript; the choice is the site's, kept", () => {
  assert.equal(storedLanguage(), "python");
  chooseLanguage("typescript");
  assert.equal(storage.getItem("lk:/kurs/:sprache:"), "typescript");
  assert.equal(storedLanguage(), "typescript");
  chooseLanguage("python");
  assert.equal(storedLanguage(), "python");
});

test("anything else stored, or storage that cannot be read, is Python", () => {
  storage.setItem("lk:/kurs/:sprache:", "rust");
  assert.equal(storedLanguage(), "python");
  storage.setItem("lk:/kurs/:sprache:", "typescript");
  storage.broken = true;
  assert.equal(storedLanguage(), "python");
});

test("a pick here and one in another tab both reach every challenge of the page", () => {
  const seen: string[] = [];
  onLanguageChange((language) => seen.push(language));
  chooseLanguage("typescript");
  const other = Object.assign(new Event("storage"), { key: "lk:/kurs/:sprache:", newValue: "python" });
  windowEvents.dispatchEvent(other);
  const unrelated = Object.assign(new Event("storage"), { key: "lk:/kurs/:draft:x", newValue: "typescript" });
  windowEvents.dispatchEvent(unrelated);
  assert.deepEqual(seen, ["typescript", "python"]);
  assert.ok(documentEvents);
});

test("type errors: how many, the first five at their lines, the rest counted", () => {
  const one = typeErrors([{ line: 3, column: 5, code: 2322, message: "Der Typ „string“ ist nicht „number“." }]);
  assert.match(one.head, /^Dein TypeScript hat einen Typfehler/);
  assert.equal(one.lines, "Zeile 3: Der Typ „string“ ist nicht „number“.");
  const many = typeErrors(Array.from({ length: 7 }, (_, i) => ({ line: i + 1, column: 1, code: 2322, message: `F${i}` })));
  assert.match(many.head, /7 Typfehler/);
  assert.deepEqual(many.lines.split("\n"), ["Zeile 1: F0", "Zeile 2: F1", "Zeile 3: F2", "Zeile 4: F3", "Zeile 5: F4", "… und 2 weitere (im Editor markiert)."]);
});
