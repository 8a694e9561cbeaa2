// A file imported as its text (`import text from "./file?raw"`): frontend/build.mjs's raw plugin.
declare module "*?raw" {
  const text: string;
  export default text;
}

// TypeScript's lib files by name (frontend/build.mjs's `tsnode-libs` plugin).
declare module "tsnode-libs" {
  const libs: Record<string, string>;
  export default libs;
}
