/**
 * The type skeleton of a JSON value: what two answers to the same kind of call share even when their
 * identifiers and times differ. Objects keep their sorted keys, arrays the skeleton of their items.
 * @example shapeOf({ id: 'a', tags: ['x'] }) // { id: 'string', tags: ['string'] }
 */
export function shapeOf(value: unknown): unknown {
  if (Array.isArray(value)) return value.length ? [shapeOf(value[0])] : [];
  if (value === null) return 'null';
  if (typeof value === 'object')
    return Object.fromEntries(
      Object.keys(value)
        .sort()
        .map((k) => [k, shapeOf((value as Record<string, unknown>)[k])]),
    );
  return typeof value;
}

/**
 * Where two skeletons differ, as paths: a key only one has, or another type.
 * @example shapeDiff(shapeOf({ a: 1 }), shapeOf({ a: '1', b: 2 })) // ['a: number vs string', 'b: only in the second']
 */
export function shapeDiff(a: unknown, b: unknown, path = ''): string[] {
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null)
    return JSON.stringify(a) === JSON.stringify(b)
      ? []
      : [`${path || '(root)'}: ${JSON.stringify(a)} vs ${JSON.stringify(b)}`];
  if (Array.isArray(a) !== Array.isArray(b)) return [`${path || '(root)'}: list vs not a list`];
  const keys = new Set([...Object.keys(a), ...Object.keys(b)]);
  const out: string[] = [];
  for (const k of keys) {
    const p = path ? `${path}.${k}` : k;
    if (!(k in a)) out.push(`${p}: only in the second`);
    else if (!(k in b)) out.push(`${p}: only in the first`);
    else out.push(...shapeDiff((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k], p));
  }
  return out;
}
