import { documentEvents, storage, visit } from "./fakes";
import assert from "node:assert/strict";
import { beforeEach, test } from "node:test";
import { ProgressStore, progressKey, readProgress, storageAvailable } from "../src/components/exercise/progress";
import { pagePath } from "../src/runtime/page";
import { storageReadable } from "../src/runtime/storage";

beforeEach(() => {
  storage.clear();
  storage.broken = false;
  storage.full = false;
  visit("lektionen/ereignisstroeme/");
});

test("keys name the site's path and the page relative to it, index.html as its folder", () => {
  assert.equal(pagePath(), "lektionen/ereignisstroeme/");
  assert.equal(progressKey("a/index.html", "uebung-1"), "lk:/kurs/:exercise:a/#uebung-1");
  assert.equal(progressKey("a/", "uebung-1"), "lk:/kurs/:exercise:a/#uebung-1");
});

test("saved progress is read back while the exercise is unchanged", () => {
  const store = new ProgressStore("uebung-1", "digest-1");
  assert.ok(store.save({ draft: "x = 1" }));
  assert.ok(store.save({ solved: true }));
  assert.deepEqual(store.load(), {
    current: { digest: "digest-1", solved: true, draft: "x = 1" },
    stale: null,
  });
});

test("progress of an older version of the exercise is stale, not current", () => {
  new ProgressStore("uebung-1", "alt").save({ draft: "alt", solved: true });
  const { current, stale } = new ProgressStore("uebung-1", "neu").load();
  assert.equal(current, null);
  assert.equal(stale?.draft, "alt");
});

test("a change of solved is announced on the page, a draft is not", () => {
  let announced = 0;
  documentEvents.addEventListener("lessonkit:progress", () => (announced += 1));
  const store = new ProgressStore("uebung-2", "d");
  store.save({ draft: "a" });
  assert.equal(announced, 0);
  store.save({ solved: true });
  store.save({ draft: "b" });
  assert.equal(announced, 1);
  store.clear();
  assert.equal(announced, 2);
  assert.deepEqual(store.load(), { current: null, stale: null });
});

test("stored values of the wrong types are ignored", () => {
  const key = progressKey("lektionen/ereignisstroeme/", "uebung-1");
  for (const text of [
    "kein json",
    "null",
    "[]",
    '{"digest": 1, "solved": true}',
    '{"digest": "d", "solved": "ja"}',
    '{"digest": "d", "solved": true, "draft": 5}',
    // tries and a shown solution of the wrong types
    '{"digest": "d", "solved": false, "tries": "2"}',
    '{"digest": "d", "solved": false, "tries": -1}',
    '{"digest": "d", "solved": false, "tries": 1.5}',
    '{"digest": "d", "solved": false, "revealed": "ja"}',
  ]) {
    storage.setItem(key, text);
    assert.equal(readProgress(key), null, text);
  }
  storage.setItem(key, '{"digest": "d", "solved": false, "answer": "3"}');
  assert.deepEqual(readProgress(key), { digest: "d", solved: false, answer: "3" });
});

test("tries and a shown solution are kept beside what was stored before", () => {
  const store = new ProgressStore("uebung-3", "d");
  assert.ok(store.save({ answer: "(1, 2)" }));
  assert.ok(store.save({ tries: 1 }));
  assert.ok(store.save({ tries: 2, revealed: true }));
  assert.ok(store.save({ solved: true }));
  assert.deepEqual(store.load().current, { digest: "d", solved: true, answer: "(1, 2)", tries: 2, revealed: true });
});

test("progress written before tries were counted still reads, as no tries and nothing shown", () => {
  const key = progressKey("lektionen/ereignisstroeme/", "uebung-4");
  for (const old of [
    { digest: "d", solved: true },
    { digest: "d", solved: false, draft: "def f():\n    pass" },
    { digest: "d", solved: true, answer: "0,2" },
  ]) {
    storage.setItem(key, JSON.stringify(old));
    assert.deepEqual(readProgress(key), old);
    const { current } = new ProgressStore("uebung-4", "d").load();
    assert.equal(current?.tries, undefined);
    assert.equal(current?.revealed, undefined);
  }
});

test("without storage the page still works: nothing saved, nothing read", () => {
  storage.broken = true;
  assert.equal(storageAvailable(), false);
  const store = new ProgressStore("uebung-1", "d");
  assert.equal(store.save({ solved: true }), false);
  assert.deepEqual(store.load(), { current: null, stale: null });
  store.clear();
});

test("progress stored under the exercise's earlier digest counts and is stored anew under today's", () => {
  const key = progressKey("lektionen/ereignisstroeme/", "uebung-1");
  storage.setItem(key, '{"digest": "mit-zeile", "solved": true, "answer": "3"}');
  const store = new ProgressStore("uebung-1", "ohne-zeile", undefined, ["mit-zeile"]);
  assert.equal(store.load().current?.solved, true);
  store.save({ answer: "4" });
  assert.deepEqual(JSON.parse(storage.getItem(key) ?? "{}"), { digest: "ohne-zeile", solved: true, answer: "4" });
  assert.equal(new ProgressStore("uebung-1", "ganz-anders").load().stale?.solved, true);
});

test("a full storage still reads: progress stays readable while nothing new is written", () => {
  assert.ok(new ProgressStore("uebung-1", "d").save({ solved: true }));
  storage.full = true;
  assert.equal(storageAvailable(), false);
  assert.equal(storageReadable(), true);
  assert.equal(readProgress(progressKey("lektionen/ereignisstroeme/", "uebung-1"))?.solved, true);
  storage.full = false;
  storage.broken = true;
  assert.equal(storageReadable(), false);
});
