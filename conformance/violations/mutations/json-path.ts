/** A path into a JSON answer; '*' stands for every item of a list. */
export type JsonPath = readonly string[];

/**
 * Applies `edit(parent, key)` at every place `path` reaches in `root` (lists fan out at '*').
 * @example editAt(body, ['data', 'connections', '*', 'id'], (o, k) => delete o[k])
 */
export function editAt(root: unknown, path: JsonPath, edit: (parent: Record<string, unknown>, key: string) => void) {
  const [head, ...rest] = path;
  if (typeof root !== 'object' || root === null || head === undefined) return;
  if (head === '*') {
    if (Array.isArray(root)) for (const item of root) editAt(item, rest, edit);
    return;
  }
  const obj = root as Record<string, unknown>;
  if (rest.length === 0) {
    if (head in obj) edit(obj, head);
    return;
  }
  editAt(obj[head], rest, edit);
}

/** A value of another JSON type than `v` (what a retyping mutation puts in its place). */
export function retyped(v: unknown): unknown {
  if (typeof v === 'string') return 42;
  if (typeof v === 'number') return String(v);
  if (typeof v === 'boolean') return String(v);
  if (Array.isArray(v)) return { items: v.length };
  if (v === null) return 0;
  return 'an object as text';
}
