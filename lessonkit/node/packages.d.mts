/** Types for packages.mjs (imported by the TypeScript worker). */
import type { PyodideInterface } from "pyodide";

export const PACKAGES_ZIP: string;
export function installPackages(pyodide: PyodideInterface, zip: Uint8Array): void;
