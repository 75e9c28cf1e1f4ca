/** What a pre-parse scan of a JSON text found wrong, or undefined when nothing. */
export type JsonScanProblem = { kind: 'depth' } | { kind: 'duplicate_key'; key: string };

interface Frame {
  object: boolean;
  keys?: Set<string>;
  expectKey: boolean;
}

/**
 * One pass over a JSON text before JSON.parse: refuses nesting deeper than `maxDepth` (depth bombs)
 * and a key given twice in one object. JSON.parse keeps the last of duplicated keys while other
 * parsers keep the first; refusing them means no two readers of one body can disagree about it.
 * Malformed text is left for JSON.parse to refuse.
 * @example scanJson('{"a":1,"a":2}', 32) // { kind: 'duplicate_key', key: 'a' }
 */
export function scanJson(text: string, maxDepth: number): JsonScanProblem | undefined {
  const stack: Frame[] = [];
  let top: Frame | undefined;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 34) {
      // A string: find its end, skipping escapes.
      const start = i;
      let escaped = false;
      for (i++; i < text.length; i++) {
        const d = text.charCodeAt(i);
        if (d === 92) {
          escaped = true;
          i++;
        } else if (d === 34) break;
      }
      if (top?.object && top.expectKey) {
        top.expectKey = false;
        let key = text.slice(start + 1, i);
        if (escaped) {
          try {
            key = JSON.parse(text.slice(start, i + 1)) as string;
          } catch {
            return undefined; // not JSON: JSON.parse says so
          }
        }
        top.keys ??= new Set();
        if (top.keys.has(key)) return { kind: 'duplicate_key', key };
        top.keys.add(key);
      }
    } else if (c === 123 || c === 91) {
      if (stack.length >= maxDepth) return { kind: 'depth' };
      top = { object: c === 123, expectKey: c === 123 };
      stack.push(top);
    } else if (c === 125 || c === 93) {
      stack.pop();
      top = stack[stack.length - 1];
    } else if (c === 44 && top?.object) top.expectKey = true;
  }
  return undefined;
}
