// A page whose blocks stood on another page (`umgezogen`, lessonkit/fences/moved.py): the
// reader's drafts, progress and console commands move with the blocks, once.
import { storage, visit } from "./fakes";
import assert from "node:assert/strict";
import { beforeEach, test } from "node:test";
import { DraftStore, hashText } from "../src/components/cell/storage";
import { consoleVersion, SavedCommands } from "../src/components/console/saved";
import { ProgressStore, progressKey } from "../src/components/exercise/progress";

const OLD = "lektionen/ereignisstroeme/";
const NEW = "lektionen/ereignisstroeme-2/";

beforeEach(() => {
  storage.clear();
  storage.broken = false;
  visit(NEW);
});

test("a draft moves from the old page by the hash of its code, whatever its index was", () => {
  const code = "print(3)";
  storage.setItem(`lk:/kurs/:draft:${OLD}#17:${hashText(code)}`, "print(4)");
  storage.setItem(`lk:/kurs/:draft:${OLD}#2:${hashText("print(1)")}`, "print(5)");
  const draft = new DraftStore(location.pathname, 0, code, [OLD]);
  assert.equal(draft.load(), "print(4)");
  assert.deepEqual(Object.fromEntries(storage.items), {
    [`lk:/kurs/:draft:${NEW}#0:${hashText(code)}`]: "print(4)",
    [`lk:/kurs/:draft:${OLD}#2:${hashText("print(1)")}`]: "print(5)",
  });
  // Without `umgezogen` nothing is taken from another page.
  storage.setItem(`lk:/kurs/:draft:${OLD}#2:${hashText("print(1)")}`, "print(5)");
  assert.equal(new DraftStore(location.pathname, 1, "print(1)").load(), null);
  // A key that only ends like ours (another page below the old one) is not ours.
  storage.setItem(`lk:/kurs/:draft:${OLD}x/#1:${hashText("print(9)")}`, "print(8)");
  assert.equal(new DraftStore(location.pathname, 2, "print(9)", [OLD]).load(), null);
});

test("progress moves from the old page only with the exercise's digest", () => {
  storage.setItem(progressKey(OLD, "offsets"), '{"digest":"d","solved":true}');
  storage.setItem(progressKey(OLD, "lag"), '{"digest":"anders","solved":true}');
  assert.equal(new ProgressStore("offsets", "d", NEW, [], [OLD]).load().current?.solved, true);
  assert.equal(storage.getItem(progressKey(OLD, "offsets")), null, "moved, not copied");
  assert.ok(storage.getItem(progressKey(NEW, "offsets")));
  assert.deepEqual(new ProgressStore("lag", "d", NEW, [], [OLD]).load(), { current: null, stale: null });
  assert.ok(storage.getItem(progressKey(OLD, "lag")), "another exercise's progress stays");
});

test("console commands move from the old page; commands that cannot be told apart stay", () => {
  const empty = consoleVersion({ kind: "log", options: {}, setup: [] });
  const orders = consoleVersion({ kind: "log", options: {}, setup: ["create topic orders partitions 3"] });
  // On the old page two plain consoles started empty, one with orders, and an exercise's.
  const before = new Map([
    ["console:3", empty],
    ["console:4", empty],
    ["console:40", orders],
    ["exercise:lag", orders],
  ]);
  new SavedCommands(OLD, []).save(
    [
      { key: "console:3", version: empty, line: "topics" },
      { key: "console:40", version: orders, line: "describe orders" },
      { key: "exercise:lag", version: orders, line: "offsets orders" },
      { key: "console:4", version: empty, line: "create topic a partitions 1" },
      { key: "console:40", version: orders, line: "topics" },
    ],
    before,
  );
  // Here the moved consoles have other slots; an empty console here could be either.
  const here = new Map([
    ["console:5", orders],
    ["console:6", empty],
    ["exercise:lag", orders],
  ]);
  const moved = new SavedCommands(NEW, [OLD]).replayable(here);
  assert.deepEqual(moved, [
    { key: "console:5", version: orders, line: "describe orders" },
    { key: "exercise:lag", version: orders, line: "offsets orders" },
    { key: "console:5", version: orders, line: "topics" },
  ]);
  assert.deepEqual(new SavedCommands(NEW, [OLD]).load(), moved, "kept under the new page");
  assert.deepEqual(
    new SavedCommands(OLD, []).load().map((command) => command.key),
    ["console:3", "console:4"],
    "moved, not copied; what cannot be told apart stays",
  );
  // Once something is kept here, nothing moves again.
  new SavedCommands(OLD, []).save([{ key: "console:40", version: orders, line: "x" }], new Map());
  assert.deepEqual(new SavedCommands(NEW, [OLD]).replayable(here), moved);
});
