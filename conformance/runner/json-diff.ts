import { isDeepStrictEqual } from 'node:util';

/** One difference between two JSON values: where, what the reference had, what was observed. */
export interface DiffEntry {
  /** JSON path, e.g. $.data.providers[2].name ("$" for the whole value). */
  path: string;
  /** JSON text of the reference value, or "(absent)". */
  expected: string;
  /** JSON text of the observed value, or "(absent)". */
  observed: string;
}

const ABSENT = '(absent)';
const MAX_VALUE = 120;
const show = (v: unknown) => {
  if (v === undefined) return ABSENT;
  const text = JSON.stringify(v) ?? String(v);
  return text.length > MAX_VALUE ? `${text.slice(0, MAX_VALUE)}…` : text;
};
const key = (k: string) => (/^[A-Za-z_$][\w$]*$/.test(k) ? `.${k}` : `[${JSON.stringify(k)}]`);
const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * The differing leaves of two JSON values, at most `limit` of them (then one entry saying how many
 * more): a failure comparing two answers shows these instead of two excerpts cut at the same length.
 * @example jsonDiff({ a: 1, b: [1, 2] }, { a: 2, b: [1] }) // [{ path: '$.a', expected: '1', observed: '2' }, { path: '$.b[1]', expected: '2', observed: '(absent)' }]
 */
export function jsonDiff(expected: unknown, observed: unknown, limit = 12): DiffEntry[] {
  const out: DiffEntry[] = [];
  let more = 0;
  const walk = (a: unknown, b: unknown, path: string) => {
    if (isDeepStrictEqual(a, b)) return;
    if (Array.isArray(a) && Array.isArray(b)) {
      for (let i = 0; i < Math.max(a.length, b.length); i++) walk(a[i], b[i], `${path}[${i}]`);
      return;
    }
    if (isObject(a) && isObject(b)) {
      for (const k of new Set([...Object.keys(a), ...Object.keys(b)])) walk(a[k], b[k], `${path}${key(k)}`);
      return;
    }
    if (out.length < limit) out.push({ path, expected: show(a), observed: show(b) });
    else more++;
  };
  walk(expected, observed, '$');
  if (more > 0) out.push({ path: '…', expected: `${more} more difference${more === 1 ? '' : 's'}`, observed: '' });
  return out;
}
