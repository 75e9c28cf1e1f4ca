// "replayed: true when the response comes from an earlier identical operation" (Meta), judged over the run's
// answers: part of generated.replay-after-a-first-call (call-checks.ts).
import type { Exchange } from '../client/http-client.ts';

const keyOf = (ex: Exchange) =>
  Object.entries(ex.requestHeaders).find(([k]) => k.toLowerCase() === 'idempotency-key')?.[1];

/**
 * MUST (Meta: "replayed: true when the response comes from an earlier identical operation"): answers marked
 * replayed whose Idempotency-Key no other call of the run sent before the answer came back (the run's keys are
 * its own, fresh each run). Copies sent at once may be answered in any order, so a call with the key that began
 * before the answer arrived is enough; a call begun after it (a retry once a 429 was answered) is not.
 * @example replaysWithoutFirst(answers) // [{ problem: 'meta.replayed true for key run-1-k, sent once in the run', ex }]
 */
export function replaysWithoutFirst(exchanges: readonly Exchange[]): { problem: string; ex: Exchange }[] {
  const byKey = new Map<string, { other: Exchange; j: number }[]>();
  exchanges.forEach((other, j) => {
    const key = keyOf(other);
    if (key !== undefined) byKey.set(key, [...(byKey.get(key) ?? []), { other, j }]);
  });
  // The log is in the order answers arrived: an earlier entry began before this answer; a later one only if
  // it says it did (or cannot say).
  const beganBefore = (other: Exchange, j: number, ex: Exchange, i: number) =>
    j < i ||
    other.startedAt === undefined ||
    ex.startedAt === undefined ||
    other.startedAt < ex.startedAt + ex.durationMs;
  return exchanges.flatMap((ex, i) => {
    const key = keyOf(ex);
    const replayed = (ex.json as { meta?: { replayed?: unknown } } | undefined)?.meta?.replayed === true;
    if (!replayed || key === undefined) return [];
    // A call the kit's client retried was sent as often as its attempts (a lost answer's retry replays).
    if ((ex.attempts ?? 1) > 1) return [];
    const before = (byKey.get(key) ?? []).some(({ other, j }) => j !== i && beganBefore(other, j, ex, i));
    if (before) return [];
    const sent = (byKey.get(key) ?? []).length;
    const problem =
      sent < 2
        ? `meta.replayed true for Idempotency-Key ${key}, sent once in the run`
        : `meta.replayed true for Idempotency-Key ${key} on its first call (${ex.status}): the key's other calls began after this answer`;
    return [{ problem, ex }];
  });
}

/**
 * MUST (Meta: replayed "when the response comes from an earlier identical operation"; "the same key with the same
 * content returns the same response again"): an answer marked replayed has the status of an answer the key's calls
 * got without the mark (a 401 of a call whose key once created something is no replay of it). Calls the kit's
 * client retried are left out, as above (their first answer may be lost), and keys one of whose calls got a fault.
 * @example replaysUnlikeFirst(answers) // [{ problem: 'meta.replayed true on a 401 for key run-1-k, whose ...', ex }]
 */
export function replaysUnlikeFirst(exchanges: readonly Exchange[]): { problem: string; ex: Exchange }[] {
  const replayed = (ex: Exchange) =>
    (ex.json as { meta?: { replayed?: unknown } } | undefined)?.meta?.replayed === true;
  const firsts = new Map<string, Set<number>>();
  for (const ex of exchanges) {
    const key = keyOf(ex);
    if (key === undefined || replayed(ex)) continue;
    firsts.set(key, (firsts.get(key) ?? new Set()).add(ex.status));
  }
  return exchanges.flatMap((ex) => {
    const key = keyOf(ex);
    const statuses = key === undefined ? undefined : firsts.get(key);
    if (!replayed(ex) || !statuses || statuses.has(ex.status) || (ex.attempts ?? 1) > 1) return [];
    // A fault (5xx) leaves the operation's outcome unknown: it may have been done, its answer lost.
    if ([...statuses].some((s) => s >= 500)) return [];
    return [
      {
        problem: `meta.replayed true on a ${ex.status} for Idempotency-Key ${key}, whose calls answered without it ${[...statuses].join(', ')}`,
        ex,
      },
    ];
  });
}
