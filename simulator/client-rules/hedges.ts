// Two attempts of one operation told apart from two operations: a copy raced against an awaited call under
// another key (a hedge), and a key that goes on past a call (its operation continued under it).
import { must } from '../lib/invariant.ts';
import type { CallRecord } from './observation.ts';

/**
 * C (calls[i]) hedges P (calls[j]): both modifying with equal content and different keys, C sent while
 * the client still awaited P, and the client then abandoned one of the two (it gave up on it: it took
 * the other's answer), neither key going on. A second attempt raced against the first, so one operation;
 * under two keys both commit. Twins sent at once are two operations: the client awaits both answers,
 * or carries each on under its own key.
 */
export function hedges(calls: CallRecord[], j: number, i: number): boolean {
  const p = must(calls[j], 'j lies inside the sorted calls');
  const c = must(calls[i], 'i lies inside the sorted calls');
  if (!p.modifying || p.key === undefined || c.key === p.key || (p.goneAt === 0 && c.goneAt === 0)) return false;
  return !keyUsedAgain(calls, j, p.key) && (c.key === undefined || !keyUsedAgain(calls, i, c.key));
}

/** P's key appears on a later call: P's operation went on under its own key. */
export function keyUsedAgain(calls: CallRecord[], j: number, key: string): boolean {
  for (let k = j + 1; k < calls.length; k++) if (calls[k]?.key === key) return true;
  return false;
}
