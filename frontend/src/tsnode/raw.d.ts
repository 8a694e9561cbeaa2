// A file imported as its text (`import text from "./file?raw"`): frontend/build.mjs's raw plugin.
declare module "*?raw" {
  const text: string;
  export default text;
}
