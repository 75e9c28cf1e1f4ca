/**
 * Returns `value`, or throws when it is absent. For values the kit's own invariants guarantee (a route
 * the contract defines, a probe the kit registers, an index inside bounds): a broken invariant then fails
 * loudly with its name instead of flowing on as `undefined` behind a non-null assertion. The kit keeps
 * its own copy: it imports nothing of the simulator but simulator/contract/.
 *
 * @example const path = must(ROUTE_BY_ID.get('getAuditLog'), 'the contract defines getAuditLog').path;
 */
export function must<T>(value: T | null | undefined, invariant: string): T {
  if (value === undefined || value === null) throw new Error(`Broken invariant: ${invariant}`);
  return value;
}
