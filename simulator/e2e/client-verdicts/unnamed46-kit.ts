import type { Target } from '../harness.ts';
import { type Auth, publish, readStream } from './unnamed-kit.ts';
import { createWith } from './unnamed11-kit.ts';
import { venue } from './unnamed45-kit.ts';

/**
 * Round 46 is about duties that cross the stream and the writes: consumers resuming after a token renewal or a
 * 429 met by another call, consumers of one client sharing one checkpoint store, stream readers that create a
 * connection per message and retry that write, readers on the alternate address, SDK reconnect defaults (the
 * stream's `retry:` field), and creates keyed by stream message numbers. Each client is written from its
 * library's documentation (none is installed).
 */

/** A checkpoint store shared by the consumers of one client (a Redis hash, a DynamoDB item, a file). */
export function checkpointStore() {
  const held = new Map<string, number>();
  return {
    get: (name: string): number | undefined => held.get(name),
    set: (name: string, n: number) => void held.set(name, n),
  };
}

/** The body a stream message turns into: one venue per message number. */
export const bodyFor = (id: number, extra: object = {}) => venue(`Stream Venue ${id}`, extra);

/** The key of the create a message number asks for (inside the Limits' pattern). */
export const keyFor = (prefix: string, id: number) => `${prefix}-evt-${String(id).padStart(6, '0')}`;

/**
 * Reads the tenant's stream from `cursor` until `count` messages (published once it is open) or the cut: the
 * numbers read, or the run throws when fewer came.
 */
export async function readCut(t: Target, a: Auth, count: number, o: { cursor?: number; publish?: number } = {}) {
  const ids = await readStream(t, a, {
    count,
    ...(o.cursor === undefined ? {} : { cursor: o.cursor }),
    onOpen: () => publish(t, a.tenant, o.publish ?? count),
  });
  if (ids.length !== count) throw new Error(`read ${ids.length} of ${count}`);
  return ids;
}

/** The last of the numbers read, or the run throws. */
export function lastOf(ids: number[]): number {
  const last = ids.at(-1);
  if (last === undefined) throw new Error('read nothing');
  return last;
}

/** A create keyed by its message number. */
export const createFor = (t: Target, a: Auth, prefix: string, id: number, extra: object = {}) =>
  createWith(t, a, bodyFor(id, extra), keyFor(prefix, id));
