import assert from "node:assert/strict";
import { test } from "node:test";
import { getBlock, getBlocks } from "../src/components/blocks";

/** An element with the children a block's markup has, found by the selectors blocks.ts uses. */
function element(found: Record<string, unknown>, id = ""): HTMLElement {
  return {
    id,
    querySelector: (selector: string) => found[selector] ?? null,
    querySelectorAll: (selector: string) => found[selector] ?? [],
  } as unknown as HTMLElement;
}

const data = (json: string) => ({ dataset: { lkJson: json } });

test("a block's data comes from its own data element, typed by its kind", () => {
  const root = element({ ":scope > .lk-cell__data": data('{"code": "1", "session": "main"}') });
  const block = getBlock("cell", root);
  assert.equal(block.root, root);
  assert.equal(block.data.code, "1");
  assert.equal(block.data.session, "main");
});

test("a block without its data element throws and names the block", () => {
  const head = { textContent: "Zelle 3" };
  const cell = element({ ':scope > [class$="__head"]': head });
  assert.throws(() => getBlock("cell", cell), (error: unknown) => {
    assert.ok(error instanceof ReferenceError);
    assert.match(error.message, /\[data-lk-cell\] Zelle 3 has no \.lk-cell__data element/);
    return true;
  });
  assert.throws(() => getBlock("exercise", element({}, "erste-vorhersage")), /#erste-vorhersage/);
});

test("getBlocks finds the blocks of a kind not mounted yet, in page order", () => {
  const first = element({ ":scope > .lk-console__data": data('{"key": "k1"}') });
  const second = element({ ":scope > .lk-console__data": data('{"key": "k2"}') });
  const scope = element({ "[data-lk-console]:not([data-lk-mounted])": [first, second] });
  assert.deepEqual(
    getBlocks("console", scope).map((block) => block.data.key),
    ["k1", "k2"],
  );
});
