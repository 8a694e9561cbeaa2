// Keys across instant page changes (issue 26): the root comes from the page script's
// address, and keys an earlier script misplaced are found again.
import { navigate, SITE, storage, visit } from "./fakes";
import assert from "node:assert/strict";
import { beforeEach, test } from "node:test";
import { DraftStore, hashText } from "../src/components/cell/storage";
import { ProgressStore, progressKey } from "../src/components/exercise/progress";
import { fixRootFromScript, pagePath, siteRoot } from "../src/runtime/page";
import { misplacedPagePaths, recoverItem } from "../src/runtime/storage";

beforeEach(() => {
  storage.clear();
  storage.broken = false;
  visit("");
});

test("the root stays the site's root after instant page changes to any depth", () => {
  fixRootFromScript(`${SITE}assets/generated/js/lessonkit.js?v=abc`);
  navigate("erste-schritte/");
  assert.equal(siteRoot().href, SITE);
  assert.equal(pagePath(), "erste-schritte/");
  navigate("lektionen/ereignisstroeme/");
  assert.equal(pagePath(), "lektionen/ereignisstroeme/");
  const store = new ProgressStore("uebung-1", "d");
  store.save({ solved: true });
  assert.deepEqual([...storage.items.keys()], ["lk:/kurs/:exercise:lektionen/ereignisstroeme/#uebung-1"]);
  navigate("");
  assert.equal(pagePath(), "");
});

test("misplaced page paths: every suffix of the full path after a slash, not the page itself", () => {
  assert.deepEqual(misplacedPagePaths("lektionen/a/"), ["kurs/lektionen/a/", "a/", ""]);
  assert.deepEqual(misplacedPagePaths(""), ["kurs/"]);
});

test("a draft stored under a misplaced key moves to its page, once", () => {
  const code = "print(300)";
  const wrong = `lk:/kurs/:draft:#0:${hashText(code)}`;
  storage.setItem(wrong, "print(250)");
  navigate("lektionen/a/");
  const draft = new DraftStore(location.pathname, 0, code);
  assert.equal(draft.load(), "print(250)");
  assert.deepEqual(Object.fromEntries(storage.items), {
    [`lk:/kurs/:draft:lektionen/a/#0:${hashText(code)}`]: "print(250)",
  });
  // Another cell (other index or other code) does not take it.
  storage.setItem(wrong, "print(250)");
  assert.equal(new DraftStore(location.pathname, 1, code).load(), null);
  assert.equal(new DraftStore(location.pathname, 0, "print(1)").load(), null);
  assert.equal(storage.getItem(wrong), "print(250)");
});

test("misplaced progress moves only with the exercise's digest (ids repeat across pages)", () => {
  navigate("lektionen/a/");
  const other = '{"digest":"fremd","solved":true}';
  const own = '{"digest":"eigen","solved":true,"answer":"3"}';
  storage.setItem(progressKey("", "uebung-1"), other);
  storage.setItem(progressKey("a/", "uebung-1"), own);
  const { current } = new ProgressStore("uebung-1", "eigen").load();
  assert.deepEqual(current, { digest: "eigen", solved: true, answer: "3" });
  assert.equal(storage.getItem(progressKey("lektionen/a/", "uebung-1")), own);
  assert.equal(storage.getItem(progressKey("a/", "uebung-1")), null);
  assert.equal(storage.getItem(progressKey("", "uebung-1")), other, "another page's progress stays");
});

test("a value kept in place wins; a candidate is removed only once copied", () => {
  storage.setItem("richtig", "a");
  storage.setItem("falsch", "b");
  assert.equal(recoverItem("richtig", ["falsch"], () => true), "a");
  assert.equal(storage.getItem("falsch"), "b");
  storage.removeItem("richtig");
  const setItem = storage.setItem.bind(storage);
  storage.setItem = () => {
    throw new DOMException("voll", "QuotaExceededError");
  };
  try {
    assert.equal(recoverItem("richtig", ["falsch"], () => true), "b");
  } finally {
    storage.setItem = setItem;
  }
  assert.equal(storage.getItem("falsch"), "b", "not copied, so not removed");
});
