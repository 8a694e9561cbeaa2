// A reader's line from a position in the JavaScript TypeScript emitted: the source map's
// "mappings" decoded (base64 VLQ, https://sourcemaps.info/spec.html), one list per line.

const BASE64 = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

/** For each generated line (0-based): its segments as [generated column, source line (1-based)]. */
export type LineMap = Array<Array<[number, number]>>;

export function decodeMappings(mappings: string): LineMap {
  const lines: LineMap = [];
  let sourceLine = 0;
  for (const text of mappings.split(";")) {
    const segments: Array<[number, number]> = [];
    let column = 0;
    for (const segment of text.split(",")) {
      if (!segment) continue;
      const fields = decodeVlq(segment);
      column += fields[0] ?? 0;
      if (fields.length >= 4) {
        sourceLine += fields[2] ?? 0;
        segments.push([column, sourceLine + 1]);
      }
    }
    lines.push(segments);
  }
  return lines;
}

function decodeVlq(segment: string): number[] {
  const values: number[] = [];
  let value = 0;
  let shift = 0;
  for (const char of segment) {
    const digit = BASE64.indexOf(char);
    value += (digit & 31) << shift;
    if (digit & 32) {
      shift += 5;
    } else {
      values.push(value & 1 ? -(value >>> 1) : value >>> 1);
      value = 0;
      shift = 0;
    }
  }
  return values;
}

/** The source line (1-based) of a generated position (line 1-based, column 1-based), or null. */
export function sourceLine(map: LineMap, line: number, column: number): number | null {
  const segments = map[line - 1];
  if (!segments || segments.length === 0) return null;
  let found: number | null = null;
  for (const [genColumn, srcLine] of segments) {
    if (genColumn > column - 1) break;
    found = srcLine;
  }
  return found ?? segments[0]?.[1] ?? null;
}
