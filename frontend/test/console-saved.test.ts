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
  const consoles = new Map([
    ["log-1", version],
    ["log-2", version],
  ]);
  assert.ok(saved.save(commands, consoles));
  assert.deepEqual([...storage.items.keys()], ["lk:/kurs/:consoles:lektionen/ereignisstroeme/"]);
  assert.deepEqual(new SavedCommands().replayable(consoles), commands);
  // Another page keeps its own.
  assert.deepEqual(new SavedCommands("lektionen/andere/").load(), []);
});

test("a console that is gone or starts from something else now replays nothing; the others do", () => {
  const version = consoleVersion(LOG);
  const saved = new SavedCommands();
  const both = new Map([
    ["log-1", version],
    ["log-2", version],
  ]);
  saved.save(
    [
      { key: "log-1", version, line: "topics" },
      { key: "log-2", version, line: "offsets orders" },
      { key: "log-1", version, line: "describe orders" },
    ],
    both,
  );
  const changed = consoleVersion({ ...LOG, setup: ["create topic orders partitions 2"] });
  assert.notEqual(changed, version);
  // Each console's state is its own: log-2's commands do not change log-1's.
  assert.deepEqual(
    saved.replayable(new Map([["log-1", version]])).map((command) => command.line),
    ["topics", "describe orders"],
  );
  const afterChange = saved.replayable(
    new Map([
      ["log-1", version],
      ["log-2", changed],
    ]),
  );
  assert.deepEqual(
    afterChange.map((command) => command.key),
    ["log-1", "log-1"],
  );
  assert.equal(saved.load().length, 3, "still kept: nothing is deleted by reading");
});

test("commands of a console that is not on this page are kept when the page saves", () => {
  const version = consoleVersion(LOG);
  const saved = new SavedCommands();
  saved.save(
    [
      { key: "log-1", version, line: "topics" },
      { key: "log-9", version, line: "describe orders" },
    ],
    new Map([
      ["log-1", version],
      ["log-9", version],
    ]),
  );
  // log-9 now stands on another page: this page saves its own commands, log-9's stay.
  const here = new Map([["log-1", version]]);
  saved.save([{ key: "log-1", version, line: "offsets orders" }], here);
  assert.deepEqual(
    saved.load().map((command) => command.line),
    ["offsets orders", "describe orders"],
  );
  assert.ok(saved.save([], here));
  assert.deepEqual(
    saved.load().map((command) => command.key),
    ["log-9"],
  );
});

test("values of other types are ignored; too many or refused commands keep nothing", () => {
  const saved = new SavedCommands();
  for (const text of ["kein json", "{}", '[{"key": 1, "version": "v", "line": "x"}]']) {
    storage.setItem("lk:/kurs/:consoles:lektionen/ereignisstroeme/", text);
    assert.deepEqual(saved.load(), [], text);
  }
  const many = Array.from({ length: MAX_SAVED + 1 }, () => ({ key: "k", version: "v", line: "topics" }));
  const none = new Map<string, string>();
  assert.equal(saved.save(many, none), false);
  assert.deepEqual(saved.load(), []);
  saved.save([{ key: "k", version: "v", line: "topics" }], none);
  const setItem = storage.setItem.bind(storage);
  storage.setItem = () => {
    throw new DOMException("voll", "QuotaExceededError");
  };
  try {
    assert.equal(saved.save([{ key: "k", version: "v", line: "x".repeat(10) }], none), false);
  } finally {
    storage.setItem = setItem;
  }
  assert.deepEqual(saved.load(), [], "an older, shorter list is not left behind");
  assert.ok(saved.save([], none));
});
