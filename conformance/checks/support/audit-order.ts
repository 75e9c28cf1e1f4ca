// The order an audit log lists its entries in, as the kit's own changes show it: the interface does not say
// which end comes first (audit.order).
import { must } from '../../runner/invariant.ts';
import type { AuditRead } from './audit-log.ts';

export type AuditOrder = 'newest first' | 'oldest first';

/**
 * The orders of a log consistent with where it names two changes made one after the other: `older`
 * and `newer` are the positions of the entries naming each (a change may be named again later, say
 * by a connection's activation). Every entry naming the newer change came after the older change's
 * first entry, so newest first puts them all before the older one's last entry, and oldest first
 * after its first. Both can hold (activation of the older between the two), neither is a log in no order.
 * @example ordersShownBy([0, 2], [1]) // ['newest first', 'oldest first']: activation, creation 2, creation 1
 */
export function ordersShownBy(older: readonly number[], newer: readonly number[]): AuditOrder[] {
  if (older.length === 0 || newer.length === 0) return [];
  const orders: AuditOrder[] = [];
  if (Math.max(...newer) < Math.max(...older)) orders.push('newest first');
  if (Math.min(...older) < Math.min(...newer)) orders.push('oldest first');
  return orders;
}

/** One of the kit's changes as a read of the log shows it: where it is named, and the request that made it. */
export interface ChangeSeen {
  positions: readonly number[];
  requestId?: string | undefined;
}

/**
 * The orders a read of the log shows for two changes the kit made one after the other. Where entries carry the
 * request ids of both creations, those entries decide. Otherwise the positions where each change is named do
 * (ordersShownBy), but only where the read reaches the log's oldest entry: a page of the newest entries (totara's
 * tail, oldest first) or a search stopped once both were named can lack the older change's creation while its
 * activation, after the newer creation, is on it, and then positions show either order. Both stay possible.
 * @example ordersOfRead({ pages: [p], entries, exhausted: false }, 50, { positions: [1] }, { positions: [0] }) // both
 */
export function ordersOfRead(read: AuditRead, limit: number, older: ChangeSeen, newer: ChangeSeen): AuditOrder[] {
  if (read.tail) return ['oldest first'];
  const made = (c: ChangeSeen) =>
    c.requestId ? read.entries.findIndex((e) => JSON.stringify(e).includes(JSON.stringify(c.requestId))) : -1;
  const [a, b] = [made(older), made(newer)];
  if (a >= 0 && b >= 0 && a !== b) return [a < b ? 'oldest first' : 'newest first'];
  const cut = !read.exhausted || (read.pages.length === 1 && read.entries.length >= limit);
  if (cut) return ['newest first', 'oldest first'];
  const shown = ordersShownBy(older.positions, newer.positions);
  if (shown.length || !older.positions.length || !newer.positions.length) return shown;
  // The whole log read and neither order shown: judged by where each change is first named.
  return [must(newer.positions[0], 'named') < must(older.positions[0], 'named') ? 'newest first' : 'oldest first'];
}
