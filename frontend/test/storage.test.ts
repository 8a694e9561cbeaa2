import { storage } from "./fakes";
import assert from "node:assert/strict";
import { test } from "node:test";

test("keys from before keys were per site move once into this site's keys", async () => {
  storage.setItem("lk:exercise:lektionen/a/index.html#uebung-1", '{"digest":"d","solved":true}');
  storage.setItem("lk:draft:/kurs/lektionen/a/#zelle-2:abc", "print(1)");
  storage.setItem("lk:draft:/anderer-kurs/x/#zelle-1:abc", "bleibt");
  storage.setItem("lk:/kurs/:exercise:lektionen/b/#uebung-1", "neuer");
  storage.setItem("lk:exercise:lektionen/b/#uebung-1", "alter");
  // Modules are loaded only now, after the legacy keys exist (they migrate on first use).
  const { siteKey } = await import("../src/runtime/storage");
  assert.equal(siteKey("exercise"), "lk:/kurs/:exercise:");
  assert.deepEqual(Object.fromEntries(storage.items), {
    "lk:/kurs/:exercise:lektionen/a/#uebung-1": '{"digest":"d","solved":true}',
    "lk:/kurs/:draft:lektionen/a/#zelle-2:abc": "print(1)",
    "lk:draft:/anderer-kurs/x/#zelle-1:abc": "bleibt",
    "lk:/kurs/:exercise:lektionen/b/#uebung-1": "neuer",
  });
});
