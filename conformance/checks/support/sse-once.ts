// "Every message carries a consecutive number and arrives exactly once" (Events), judged between reads of ONE
// feed that one check opened itself (the same token, tenant and address): a message is known by its event name and
// its data, a number by its message. Kept to reads a check made side by side on purpose: across a whole run a
// token that expired mid-read reopens on the public feed, numbered on its own.
import type { SseEvent, SseSession } from '../../client/sse-stream.ts';
import { namesValue } from './names-value.ts';
import { numbered, numericId } from './sse-scenario.ts';

/** Shorter data could repeat by chance (an empty object, a bare state word). */
const MIN_DATA = 16;

/** A message's identity within its feed: its event name and its data, unchanged. */
const contentOf = (e: SseEvent) => `${e.event ?? 'message'}\n${e.data}`;

/** Whether a message is about one of `ids` (the kit's connections): such messages are never alike by chance. */
const aboutAny = (e: SseEvent, ids: readonly string[]) =>
  e.data.length >= MIN_DATA && ids.some((id) => namesValue(e.data, id));

/**
 * Messages about the kit's connections (`ids`) that one read carried twice under two numbers: the same event
 * and data again, as a second announcement or a resent backlog.
 * @example repeatsWithin([{ id: '4', data: '{"id":"c1"}' }, { id: '5', data: '{"id":"c1"}' }], ['c1']) // ['... 4 and 5']
 */
export function repeatsWithin(events: readonly SseEvent[], ids: readonly string[]): string[] {
  const first = new Map<string, string>();
  const problems: string[] = [];
  for (const e of numbered(events)) {
    if (!aboutAny(e, ids)) continue;
    const seen = first.get(contentOf(e));
    if (seen !== undefined && seen !== e.id)
      problems.push(
        `the message numbered ${seen} came again as ${e.id}: ${e.event ?? 'message'} ${e.data.slice(0, 100)}`,
      );
    else first.set(contentOf(e), e.id ?? '');
  }
  return problems;
}

/**
 * Where two reads of one feed disagree: a message both carried under different numbers, a number both carried
 * with different messages, and (`complete`) a message of `a` numbered within the range `b` covered that `b`
 * left out (a resumed backlog that drops what another read was given).
 * @example disagreements(live, resumed, { complete: true, from: 41 }) // ['message 43 ... missing', ...]
 */
export function disagreements(
  a: readonly SseEvent[],
  b: readonly SseEvent[],
  o: { complete?: boolean; from?: number } = {},
): string[] {
  const problems: string[] = [];
  const bByContent = new Map<string, number>();
  const bById = new Map<number, SseEvent>();
  for (const e of numbered(b)) {
    const n = numericId(e);
    if (Number.isNaN(n)) continue;
    if (!bByContent.has(contentOf(e))) bByContent.set(contentOf(e), n);
    if (!bById.has(n)) bById.set(n, e);
  }
  const ids = [...bById.keys()];
  const last = ids.length ? Math.max(...ids) : Number.NEGATIVE_INFINITY;
  for (const e of numbered(a)) {
    const n = numericId(e);
    if (Number.isNaN(n)) continue;
    const there = bByContent.get(contentOf(e));
    const atNumber = bById.get(n);
    if (there !== undefined && there !== n)
      problems.push(`message ${n} (${e.event ?? 'message'}) was numbered ${there} in the other read`);
    else if (atNumber && contentOf(atNumber) !== contentOf(e))
      problems.push(
        `number ${n} carried ${e.event ?? 'message'} ${e.data.slice(0, 60)} in one read and ${atNumber.event ?? 'message'} ${atNumber.data.slice(0, 60)} in the other`,
      );
    else if (o.complete && !atNumber && there === undefined && n > (o.from ?? Number.NEGATIVE_INFINITY) && n <= last)
      problems.push(
        `message ${n} (${e.event ?? 'message'}) is missing from the other read, which carried ${o.from !== undefined ? `${o.from + 1}` : 'its first'} to ${last}`,
      );
  }
  return problems;
}

/**
 * Reads until no message came for `quietMs` (or `maxMs` passed): the whole of a backlog however slowly a loaded
 * deployment sends it, and the moment the feed has nothing newer (a fixed read window cuts a slow backlog short).
 * @example await readUntilQuiet(session, 250, 3000);
 */
export async function readUntilQuiet(session: SseSession, quietMs: number, maxMs: number): Promise<void> {
  const until = Date.now() + maxMs;
  for (;;) {
    const before = session.events.length;
    const left = until - Date.now();
    if (left <= 0) return;
    await session.readUntil((events) => events.length > before, Math.min(quietMs, left));
    if (session.events.length === before) return;
  }
}
