// "Meta: at | string, date-time | yes" on every answer, success or failure, at either address. What instant it names
// is not shown, but it is one service's clock, and a clock only moves forward (a sandbox's may be moved on, never
// back). So an answer the kit sent after another had arrived cannot state a time well before that one's. The kit
// needs no agreement with its own clock: each answer states `at` within [sent, received] shifted by the service's
// offset, and that offset never falls. A 404 envelope built once and served again (its meta.at frozen), a 429 stamped
// with its window's start, or one address whose host runs minutes behind the other breaks that order.
import type { Exchange } from '../client/http-client.ts';
import { type CheckContext, defineCheck } from '../runner/check.ts';

/** How far an answer may state a time before an earlier one's: clocks of two replicas, a time written in whole seconds. */
export const META_AT_ORDER_SKEW_MS = 2_000;
const DATE_TIME = /^\d{4}-\d{2}-\d{2}[Tt ]\d{2}:\d{2}/;

/** An answer with its stated time and when the kit sent it and had it (epoch ms). */
export interface Timed {
  ex: Exchange;
  at: number;
  sent: number;
  received: number;
}

/**
 * The pair of answers farthest out of order: `later` was sent after `earlier` had arrived, yet states a time more
 * than `skew` ms before it could (the service's offset fell). One sweep in order of sending, keeping the largest
 * lowest-offset of the answers already in.
 * @example outOfOrder([{ at: 10_000, sent: 0, received: 10 }, { at: 1_000, sent: 5_000, received: 5_010 }], 2_000)?.behindMs // 13_990
 */
export function outOfOrder<T extends Omit<Timed, 'ex'>>(
  timed: readonly T[],
  skew: number,
): { earlier: T; later: T; behindMs: number } | undefined {
  const byReceived = [...timed].sort((x, y) => x.received - y.received);
  const bySent = [...timed].sort((x, y) => x.sent - y.sent);
  let i = 0;
  let lead: T | undefined;
  let worst: { earlier: T; later: T; behindMs: number } | undefined;
  for (const later of bySent) {
    for (let a = byReceived[i]; a !== undefined && a.received < later.sent; a = byReceived[++i])
      if (!lead || a.at - a.received > lead.at - lead.received) lead = a;
    if (!lead) continue;
    // The earliest offset `lead` allows against the latest one `later` allows.
    const behindMs = lead.at - lead.received - (later.at - later.sent);
    if (behindMs > skew && (!worst || behindMs > worst.behindMs)) worst = { earlier: lead, later, behindMs };
  }
  return worst;
}

/** Whether a cache in front may have kept the answer (its time is the cached one's). */
const cacheable = (ex: Exchange) =>
  ex.headers.age !== undefined || /(?:^|,)\s*(?:s-)?max-age\s*=\s*[1-9]/i.test(ex.headers['cache-control'] ?? '');

const line = (ex: Exchange, at: string) => `${ex.method} ${new URL(ex.url).pathname} (${ex.status}, meta.at ${at})`;

export const metaAtInOrder = defineCheck({
  name: 'envelope.meta-at-in-order',
  title:
    "meta.at never goes back: an answer the kit sent after another had arrived states a time no more than 2 s before the other's (every status, both addresses)",
  severity: 'SHOULD',
  section: 'Meta',
  tags: ['envelope', 'meta'],
  mutating: false,
  judgesRun: true,
  async run(ctx: CheckContext) {
    const used = new Set<string>();
    const timed: Timed[] = [];
    for (const { ex } of ctx.exchanges()) {
      // A key sent again may be answered with the first answer, its time included ("the same response again").
      const key = Object.entries(ex.requestHeaders).find(([k]) => k.toLowerCase() === 'idempotency-key')?.[1];
      const again = key !== undefined && used.has(key);
      if (key !== undefined) used.add(key);
      const meta = (ex.json as { meta?: { at?: unknown; replayed?: unknown } } | undefined)?.meta;
      if (again || ex.startedAt === undefined || meta?.replayed === true || cacheable(ex)) continue;
      if (typeof meta?.at !== 'string' || !DATE_TIME.test(meta.at)) continue;
      const at = Date.parse(meta.at);
      if (!Number.isNaN(at)) timed.push({ ex, at, sent: ex.startedAt, received: ex.startedAt + ex.durationMs });
    }
    if (timed.length < 2) ctx.skip(`meta.at read on ${timed.length} answer(s): nothing to put in order`);
    const worst = outOfOrder(timed, META_AT_ORDER_SKEW_MS);
    ctx.note(`meta.at of ${timed.length} answers put in the order the kit sent and had them`);
    if (!worst) return;
    const { earlier, later } = worst;
    const atOf = (t: Timed) => (t.ex.json as { meta: { at: string } }).meta.at;
    ctx.expect.that(false, {
      expected: `an answer sent ${((later.sent - earlier.received) / 1000).toFixed(1)} s after ${line(earlier.ex, atOf(earlier))} had arrived states a time no more than ${META_AT_ORDER_SKEW_MS / 1000} s before it (one service's clock only moves forward)`,
      observed: `${line(later.ex, atOf(later))}: ${(worst.behindMs / 1000).toFixed(1)} s behind`,
      exchange: later.ex,
    });
  },
});
