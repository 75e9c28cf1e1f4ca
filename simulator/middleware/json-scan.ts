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

export type JsonParseOutcome =
  | { ok: true; value: unknown }
  | { ok: false; problem: JsonScanProblem | { kind: 'invalid' } };

/** Keys in the text (strings followed by a colon) and whether the nesting stays within `maxDepth`. */
function countKeys(text: string, maxDepth: number): number {
  let keys = 0;
  let depth = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 34) {
      for (i++; i < text.length; i++) {
        const d = text.charCodeAt(i);
        if (d === 92) i++;
        else if (d === 34) break;
      }
      let j = i + 1;
      while (j < text.length) {
        const w = text.charCodeAt(j);
        if (w !== 32 && w !== 9 && w !== 10 && w !== 13) break;
        j++;
      }
      if (text.charCodeAt(j) === 58) keys++;
    } else if (c === 123 || c === 91) {
      if (++depth > maxDepth) return -1;
    } else if (c === 125 || c === 93) depth--;
  }
  return keys;
}

function parsedKeys(value: unknown): number {
  if (typeof value !== 'object' || value === null) return 0;
  let n = 0;
  if (Array.isArray(value)) {
    for (const v of value) n += parsedKeys(v);
    return n;
  }
  for (const k in value) n += 1 + parsedKeys((value as Record<string, unknown>)[k]);
  return n;
}

/**
 * JSON.parse with scanJson's refusals (nesting past `maxDepth`, a key twice in one object) at a
 * fraction of its cost on the bodies that have neither: one pass without allocations counts the keys
 * and the depth; JSON.parse keeps one of two equal keys, so the parsed value has fewer keys exactly
 * when the text repeats one, and only then does scanJson run to name it.
 * @example parseJsonChecked('{"a":1,"a":2}', 32) // { ok: false, problem: { kind: 'duplicate_key', key: 'a' } }
 */
export function parseJsonChecked(text: string, maxDepth: number): JsonParseOutcome {
  const keys = countKeys(text, maxDepth);
  if (keys < 0) return { ok: false, problem: { kind: 'depth' } };
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return { ok: false, problem: { kind: 'invalid' } };
  }
  if (parsedKeys(value) === keys) return { ok: true, value };
  return { ok: false, problem: scanJson(text, maxDepth) ?? { kind: 'invalid' } };
}
