// "idempotency_conflict: same idempotency key with different content": judged on every answer of the run. A key
// the run made (it carries the run's id) and sent once only has no earlier content to differ from; a conflict on
// it names an operation that never happened (a replica's stale lock, a cache keyed by something else).
import type { Exchange } from '../client/http-client.ts';
import { defineCheck } from '../runner/check.ts';

const keyOf = (ex: Exchange) =>
  Object.entries(ex.requestHeaders).find(([k]) => k.toLowerCase() === 'idempotency-key')?.[1];
const codeOf = (ex: Exchange) => (ex.json as { error?: { code?: unknown } } | undefined)?.error?.code;

/**
 * The answers 409 idempotency_conflict whose key the run sent on that call only (and no answer ever carried).
 * @example freshConflicts(exchanges, 'ncs-conformance-1a2b') // [] unless a fresh key met a conflict
 */
export function freshConflicts(exchanges: readonly Exchange[], marker: string): Exchange[] {
  const uses = new Map<string, number>();
  for (const ex of exchanges) {
    const key = keyOf(ex);
    if (key) uses.set(key, (uses.get(key) ?? 0) + 1);
    // A key the deployment issued or echoed counts as used (an issue may bind it to an operation's content).
    for (const k of ex.text.match(/ncs-conformance-[\w.:-]+/g) ?? []) if (k !== key) uses.set(k, 2);
  }
  return exchanges.filter((ex) => {
    const key = keyOf(ex);
    return key?.includes(marker) && uses.get(key) === 1 && ex.status === 409 && codeOf(ex) === 'idempotency_conflict';
  });
}

export const freshKeyNoConflict = defineCheck({
  name: 'idempotency.fresh-key-no-conflict',
  title:
    'a key the run sent once only is never answered idempotency_conflict (the code means the same key with different content, and it had none before)',
  severity: 'MUST',
  section: 'Errors',
  tags: ['idempotency'],
  mutating: false,
  judgesRun: true,
  async run(ctx) {
    const all = ctx.exchanges().map(({ ex }) => ex);
    const bad = freshConflicts(all, `ncs-conformance-${ctx.runId}-`);
    const first = bad[0];
    if (first)
      ctx.fail({
        expected: `${first.method} ${new URL(first.url).pathname} with a key sent on no other call of the run is not refused idempotency_conflict`,
        observed: `409 idempotency_conflict (${bad.length} such answers)`,
        exchange: first,
      });
    else ctx.note(`judged ${all.filter(keyOf).length} calls sent with a key`);
  },
});
