/**
 * Returns `value`, or throws when it is absent. For values the code's own invariants guarantee (an
 * index inside bounds, a key just checked, a route the contract defines): a broken invariant then fails
 * loudly with its name instead of flowing on as `undefined` behind a non-null assertion.
 *
 * @example const root = must(heap[0], 'a non-empty heap has a root');
 */
export function must<T>(value: T | null | undefined, invariant: string): T {
  if (value === undefined || value === null) throw new Error(`Broken invariant: ${invariant}`);
  return value;
}
