/**
 * localStorage that never throws: private windows, policies and a full quota make
 * it fail, and the page must work anyway. Writers learn whether it worked.
 */

export function readItem(key: string): string | null {
  try {
    return window.localStorage.getItem(key);
  } catch {
    return null;
  }
}

/** False when the value could not be stored. */
export function writeItem(key: string, value: string): boolean {
  try {
    window.localStorage.setItem(key, value);
    return true;
  } catch {
    return false;
  }
}

export function removeItem(key: string): void {
  try {
    window.localStorage.removeItem(key);
  } catch {
    // nothing stored, nothing to remove
  }
}

/** Every stored key that starts with one of `prefixes`. */
export function keysWith(...prefixes: string[]): string[] {
  const keys: string[] = [];
  try {
    for (let i = 0; i < window.localStorage.length; i++) {
      const key = window.localStorage.key(i);
      if (key && prefixes.some((prefix) => key.startsWith(prefix))) keys.push(key);
    }
  } catch {
    // storage unavailable: nothing stored
  }
  return keys;
}
