import { storage, visit } from "./fakes";
import assert from "node:assert/strict";
import { beforeEach, test } from "node:test";
import { consoleVersion, MAX_SAVED, SavedCommands } from "../src/components/console/saved";

beforeEach(() => {
  storage.clear();
  storage.broken = false;
  visit("lektionen/ereignisstroeme/");
});

const LOG = { kind: "log", options: {}, setup: ["create topic orders partitions 3"] };

test("commands are kept per page, in order, and replayed while the consoles are unchanged", () => {
  const saved = new SavedCommands();
  const version = consoleVersion(LOG);
  const commands = [
    { key: "log-1", version, line: "topics" },
    { key: "log-2", version, line: "offsets orders" },
  ];
  assert.ok(saved.save(commands));
  assert.deepEqual([...storage.items.keys()], ["lk:/kurs/:consoles:lektionen/ereignisstroeme/"]);
  const consoles = new Map([
    ["log-1", version],
    ["log-2", version],
  ]);
  assert.deepEqual(new SavedCommands().replayable(consoles), commands);
  // Another page keeps its own.
  assert.deepEqual(new SavedCommands("lektionen/andere/").load(), []);
});

test("nothing is replayed when a console is gone or starts from something else now", () => {
  const version = consoleVersion(LOG);
  const saved = new SavedCommands();
  saved.save([
    { key: "log-1", version, line: "topics" },
    { key: "log-2", version, line: "topics" },
  ]);
  const changed = consoleVersion({ ...LOG, setup: ["create topic orders partitions 2"] });
  assert.notEqual(changed, version);
  assert.deepEqual(saved.replayable(new Map([["log-1", version]])), []);
  assert.deepEqual(
    saved.replayable(
      new Map([
        ["log-1", version],
        ["log-2", changed],
      ]),
    ),
    [],
  );
  assert.equal(saved.load().length, 2, "still kept: nothing is deleted by reading");
});

test("values of other types are ignored; too many or refused commands keep nothing", () => {
  const saved = new SavedCommands();
  for (const text of ["kein json", "{}", '[{"key": 1, "version": "v", "line": "x"}]']) {
    storage.setItem("lk:/kurs/:consoles:lektionen/ereignisstroeme/", text);
    assert.deepEqual(saved.load(), [], text);
  }
  const many = Array.from({ length: MAX_SAVED + 1 }, () => ({ key: "k", version: "v", line: "topics" }));
  assert.equal(saved.save(many), false);
  assert.deepEqual(saved.load(), []);
  saved.save([{ key: "k", version: "v", line: "topics" }]);
  const setItem = storage.setItem.bind(storage);
  storage.setItem = () => {
    throw new DOMException("voll", "QuotaExceededError");
  };
  try {
    assert.equal(saved.save([{ key: "k", version: "v", line: "x".repeat(10) }]), false);
  } finally {
    storage.setItem = setItem;
  }
  assert.deepEqual(saved.load(), [], "an older, shorter list is not left behind");
  assert.ok(saved.save([]));
});
