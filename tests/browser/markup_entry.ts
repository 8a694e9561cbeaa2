// The page script's renderers of live results, for tests/browser/test_markup.py.
export { OutputView } from "../../frontend/src/components/output/render";
export { Transcript } from "../../frontend/src/components/console/transcript";
