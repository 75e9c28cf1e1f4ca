import type { Exchange } from '../client/http-client.ts';
import { type CheckContext, defineCheck } from '../runner/check.ts';
import { othersIn } from './support/receiver-entries.ts';
import {
  deliveryIdHeader,
  deliveryIds,
  deliveryLog,
  describeIds,
  findLogged,
  loggedDeliveries,
} from './support/webhook-evidence.ts';
import { deliveryLogTemplate, requireDelivery, signatureHeaderOf } from './support/webhook-scenario.ts';

export const deliveryLogged = defineCheck({
  name: 'webhooks.delivery-log',
  title: "a delivery is recorded in the receiver's delivery log",
  severity: 'SHOULD',
  section: 'Webhooks',
  tags: ['webhooks'],
  mutating: true,
  requires: ['token'],
  async run(ctx: CheckContext) {
    if (ctx.declared('webhookDeliveryLogPath'))
      ctx.judgeAsMust('the deployment profile declares webhookDeliveryLogPath');
    const s = await requireDelivery(ctx);
    const ex = await deliveryLog(ctx, s, s.delivery);
    if (!ctx.expect.status(ex, 200, `GET ${await deliveryLogTemplate(ctx)} answers 200`)) return;
    const idHeader = deliveryIdHeader(ctx);
    const headerId = idHeader === undefined ? undefined : s.delivery.headers[idHeader];
    const logged = loggedDeliveries(ex);
    const ids = logged.map((e) => (e && typeof e === 'object' ? (e as { id?: unknown }).id : undefined));
    const entry = findLogged(ctx, ex, s.delivery, s.webhookId);
    const found = entry !== undefined;
    // The log's payload is not shown: a log whose entries hold none of the ids any delivery to the receiver
    // carried (a batch's every event, an id header) cannot be matched against it (attempts by their own ids).
    const namesEvents = s.receiver.received.some(
      (d) => d.path.includes(s.label) && findLogged(ctx, ex, d, s.webhookId) !== undefined,
    );
    if (!found && headerId === undefined && logged.length > 0 && !namesEvents)
      ctx.skip(
        `the delivery log's ${logged.length} entries hold none of the ids the receiver's deliveries carry (looked for ${describeIds(deliveryIds(s.delivery, idHeader))}: the event ids of the body, of every event of an array body, and the values of headers named like an id, in every field of each entry), and the delivery carries no id header the kit knows (${idHeader ?? 'none declared'}): declare webhookDeliveryIdHeader in the deployment profile (the log's payload is not shown)`,
      );
    ctx.expect.that(found, {
      expected: `the delivery log lists the delivery the receiver got (by one of its ids: ${describeIds(deliveryIds(s.delivery, idHeader))})`,
      observed: `${ex.status}, ${logged.length} entr${logged.length === 1 ? 'y' : 'ies'}${
        logged.length
          ? ` (ids ${ids
              .slice(0, 5)
              .map((i) => JSON.stringify(i ?? null))
              .join(', ')}${logged.length > 5 ? ', …' : ''})`
          : ''
      }, none naming it`,
      exchange: ex,
    });
    // A record that shows a signature (the interface's t=…,v1=… form) shows its t as the header carries it, in
    // unix seconds of when the delivery was made: a log rendering the attempt's time in milliseconds records a
    // header no receiver was sent. (Its v1 is not compared: a deployment's own relay may sign the last hop anew.)
    // A header some delivery did carry (a retry's own, however it was signed) is recorded truly: judged elsewhere.
    const recorded = entry === undefined ? [] : signaturesIn(entry);
    const carried = new Set(
      s.receiver.received.flatMap((d) => {
        const h = signatureHeaderOf(ctx, d);
        return h === undefined || d.headers[h] === undefined ? [] : [d.headers[h]];
      }),
    );
    const sentAt = s.delivery.receivedAt / 1000;
    const off = recorded.filter((v) => !carried.has(v) && Math.abs(Number(/^t=(\d+)/.exec(v)?.[1]) - sentAt) > 3600);
    ctx.expect.that(off.length === 0, {
      expected:
        'a signature the delivery log records for the delivery carries t in unix seconds of the delivery, as the header does ("t=<unix-seconds>")',
      observed: `recorded ${off[0]}; the delivery arrived at ${Math.floor(sentAt)}`,
      exchange: ex,
    });
    // The receiver's log is its own ("viewing deliveries" of a receiver): no entry names another receiver the kit
    // registered, by its url or in a field named for a receiver. Judged where the log's path names the receiver.
    const foreign = (await deliveryLogTemplate(ctx)).includes('{webhookId}') ? othersIn(ctx, s, logged) : [];
    ctx.expect.that(foreign.length === 0, {
      expected: `receiver ${s.webhookId}'s delivery log lists its own deliveries only`,
      observed: `${foreign.length} of ${logged.length} entries name another receiver of the kit's; the first: ${String(JSON.stringify(foreign[0])).slice(0, 240)}`,
      exchange: ex,
    });
    countNotBelow(ctx, ex, 'the delivery log');
    // The same interface at the alternate address: its delivery log lists the delivery too.
    if (found && ctx.target.altBaseUrl) {
      const there = await deliveryLog(ctx, s, s.delivery, { base: 'alt' });
      countNotBelow(ctx, there, 'the delivery log at the alternate base URL');
      ctx.expect.that(there.status === 200 && findLogged(ctx, there, s.delivery, s.webhookId) !== undefined, {
        expected: 'the delivery log at the alternate base URL lists the delivery too (the same interface)',
        observed: `${there.status}, ${loggedDeliveries(there).length} entries, none naming it`,
        exchange: there,
      });
    }
  },
});

/**
 * A log's payload is not shown, but a count beside its entries counts them (this page's or all of them):
 * never fewer than it lists (a count read from another store, an empty outbox, says 0 beside entries).
 */
function countNotBelow(ctx: CheckContext, ex: Exchange, what: string) {
  const count = (ex.json as { data?: { count?: unknown } } | undefined)?.data?.count;
  const listed = loggedDeliveries(ex).length;
  if (ex.status !== 200 || typeof count !== 'number') return;
  ctx.expect.that(count >= listed, {
    expected: `${what}'s data.count is not below the entries it lists (it counts them, on this page or in all)`,
    observed: `data.count ${count} beside ${listed} entries`,
    exchange: ex,
  });
}

/** Every string value of the signature's form anywhere in a log record. */
function signaturesIn(value: unknown): string[] {
  if (typeof value === 'string') return /^t=\d+,v1=[0-9a-f]+$/i.test(value.trim()) ? [value.trim()] : [];
  if (Array.isArray(value)) return value.flatMap(signaturesIn);
  if (value && typeof value === 'object') return Object.values(value).flatMap(signaturesIn);
  return [];
}
