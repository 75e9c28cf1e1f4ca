// "Deliveries are recorded in a delivery log": every delivery, not the first few. After the run's writes, the
// kit's receiver has been sent a delivery for each connection the run created (and each one triggered again);
// its log, read to its end, lists them all. How long a log keeps entries is not shown: a log that keeps fewer
// drops the oldest, so only a delivery newer than one the log still lists counts as missing (a log that stops
// recording after its eighth entry, a per-receiver quota, a writer that skips inserts under load).
import type { Exchange } from '../client/http-client.ts';
import type { ReceivedDelivery } from '../client/webhook-receiver.ts';
import { type CheckContext, defineCheck } from '../runner/check.ts';
import { nextPage } from './support/audit-paging.ts';
import { readEventually } from './support/eventually.ts';
import {
  deliveryIdHeader,
  deliveryIds,
  deliveryLog,
  describeIds,
  findLogged,
  loggedDeliveries,
} from './support/webhook-evidence.ts';
import type { WebhookScenario } from './support/webhook-scenario.ts';

/** At most this many pages of the log are read (beyond them, the log is out of the kit's reach: not judged). */
const LOG_PAGES = 20;
/** Deliveries that arrived this recently may still be on their way into a log written after the answer. */
const SETTLE_MS = 1000;

/** The receiver's whole log (every page, up to LOG_PAGES), as one answer; `complete`: its last page was read. */
async function wholeLog(ctx: CheckContext, s: WebhookScenario): Promise<{ ex: Exchange; complete: boolean }> {
  let page = await deliveryLog(ctx, s);
  const entries = [...loggedDeliveries(page)];
  let next = page.status === 200 ? nextPage(page) : undefined;
  for (let i = 1; next && i < LOG_PAGES; i++) {
    const more = await ctx.call('GET', next);
    if (more.status !== 200) break;
    const added = loggedDeliveries(more);
    // A page that repeats the last one (a cursor not taken) ends the reading.
    if (!added.length || JSON.stringify(added) === JSON.stringify(loggedDeliveries(page))) break;
    entries.push(...added);
    page = more;
    next = nextPage(more);
  }
  return { ex: { ...page, json: { data: { deliveries: entries } } }, complete: !next };
}

export const deliveryLogComplete = defineCheck({
  name: 'webhooks.delivery-log-complete',
  title:
    "after the run's writes, the receiver's delivery log lists every delivery the receiver got (a log that keeps fewer keeps the newest)",
  severity: 'SHOULD',
  section: 'Webhooks',
  tags: ['webhooks'],
  mutating: true,
  requires: ['token'],
  readsStill: true,
  async run(ctx: CheckContext) {
    if (ctx.declared('webhookDeliveryLogPath'))
      ctx.judgeAsMust('the deployment profile declares webhookDeliveryLogPath');
    // Reads only: the receiver the webhook checks registered, if they did (this check writes nothing).
    const s = await ctx.sharedIfMade<WebhookScenario>('webhook-scenario');
    if (!s?.webhookId) ctx.skip('no receiver of the kit was registered in this run (see webhooks.registration)');
    const mine = (d: ReceivedDelivery) => (d.path.split('?')[0] ?? '').endsWith(`/${s.label}`);
    const settledBefore = Date.now() - SETTLE_MS;
    const got = s.receiver.received.filter((d) => mine(d) && d.receivedAt <= settledBefore);
    if (got.length < 2) ctx.skip(`the kit's receiver got ${got.length} deliveries in this run: nothing to count`);
    const missingOf = (ex: Exchange) => got.filter((d) => findLogged(ctx, ex, d, s.webhookId) === undefined);
    const read = await readEventually(
      ctx,
      () => wholeLog(ctx, s),
      (r) => r.ex.status !== 200 || !missingOf(r.ex).length,
    );
    if (read.ex.status !== 200) ctx.skip(`the delivery log answered ${read.ex.status} (see webhooks.delivery-log)`);
    const missing = missingOf(read.ex);
    const listed = got.filter((d) => !missing.includes(d));
    // The log's payload is not shown: where it names none of the deliveries, it cannot be matched (see webhooks.delivery-log).
    if (!listed.length)
      ctx.skip(
        `the delivery log names none of the ${got.length} deliveries by an id the kit knows (see webhooks.delivery-log)`,
      );
    if (!read.complete)
      ctx.note(`the log offers more than ${LOG_PAGES} pages: the deliveries on later pages are not looked for`);
    const oldestListed = Math.min(...listed.map((d) => d.receivedAt));
    const newer = read.complete ? missing.filter((d) => d.receivedAt > oldestListed) : [];
    const first = newer[0];
    ctx.expect.that(first === undefined, {
      expected: `receiver ${s.webhookId}'s delivery log lists every delivery it got (${got.length}), at least every one newer than the oldest it lists ("Deliveries are recorded in a delivery log")`,
      observed: first
        ? `${newer.length} of ${got.length} deliveries missing though the log lists ${listed.length} (older ones among them); the first missing carries ${describeIds(deliveryIds(first, deliveryIdHeader(ctx)))}`
        : '',
      exchange: read.ex,
    });
  },
});
