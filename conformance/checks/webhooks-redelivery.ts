// webhooks.redelivery: a logged delivery triggered again ("can be triggered again on request"), its repeat with the
// same Idempotency-Key and its refusal without one. Split from webhooks-delivery-log.ts (the log itself).
import { verifyWebhook } from '../../simulator/contract/webhook-signature.ts';
import type { Exchange } from '../client/http-client.ts';
import type { ReceivedDelivery } from '../client/webhook-receiver.ts';
import { type CheckContext, defineCheck } from '../runner/check.ts';
import { nextPage } from './support/audit-paging.ts';
import { renewedBetween } from './support/connections.ts';
import { replayUnjudged } from './support/key-validity.ts';
import { deliveryLog, describe, eventIdOf, findLogged, loggedDeliveries } from './support/webhook-evidence.ts';
import { arrivals, redeliver, redeliveryTarget } from './support/webhook-redeliver.ts';
import {
  deliveriesPath,
  deliveryWaitMs,
  requireDelivery,
  signatureHeaderOf,
  type WebhookScenario,
} from './support/webhook-scenario.ts';
import { FORM_EXPECTED, formProblems } from './support/webhook-signature-form.ts';
import { tenantTriggeredAgain } from './webhook-tenant.ts';

/**
 * How long the kit listens for a repeated effect: twice the first redelivery's latency (a repeat's effect
 * comes as fast as the first's), 500 ms at least (ten times a loopback delivery's), 5 s and the delivery
 * wait at most: five times and up to the whole delivery wait made a run against a deployment delivering in
 * 1.5 s about 17 s longer.
 */
const settleMs = (ctx: CheckContext, latencyMs: number) =>
  Math.min(deliveryWaitMs(ctx), 5000, Math.max(500, 2 * latencyMs));

/** Judges the deliveries a redelivery sent: in the interface's form, signed over the raw body, at the time sent. */
function judgeResent(ctx: CheckContext, s: WebhookScenario, resent: readonly ReceivedDelivery[], ex: Exchange) {
  for (const d of resent) {
    const header = signatureHeaderOf(ctx, d);
    const value = header === undefined ? undefined : d.headers[header];
    const problems = value === undefined ? ['no signature header'] : formProblems(value);
    ctx.expect.that(problems.length === 0, {
      expected: `the delivery triggered again is signed like the first: ${FORM_EXPECTED}`,
      observed: `${problems.join('; ')}: ${describe(d, header)}`,
      exchange: ex,
    });
    if (!s.secret || value === undefined) continue;
    const result = verifyWebhook(d.rawBody, value, s.secret, { now: Math.floor(d.receivedAt / 1000) });
    ctx.expect.that(result.ok, {
      expected:
        'the delivery triggered again carries a valid signature whose t lies within 300 s of its arrival (receivers reject it otherwise)',
      observed: `${result.ok ? '' : result.reason}: ${describe(d, header)}`,
      exchange: ex,
    });
  }
}

export const redelivery = defineCheck({
  name: 'webhooks.redelivery',
  title:
    'a logged delivery triggered again arrives at the receiver again with the same event, signed like any delivery, and the log records it; the call repeated with its Idempotency-Key sends nothing more, and without a key is refused 428',
  // SHOULD at the simulator's paths (assumed: the interface does not show them); MUST where the
  // deployment profile declares the path (judgeAsMust below), as the severity policy says.
  severity: 'SHOULD',
  section: 'Webhooks',
  tags: ['webhooks', 'idempotency'],
  mutating: true,
  requires: ['token'],
  async run(ctx: CheckContext) {
    if (ctx.declared('webhookRedeliverPath')) ctx.judgeAsMust('the deployment profile declares webhookRedeliverPath');
    const s = await requireDelivery(ctx);
    const target = await redeliveryTarget(ctx, s);
    const matches = arrivals(s);
    const before = s.receiver.received.filter(matches).length;
    const key = ctx.label('key');
    const sent = Date.now();
    const ex = await redeliver(ctx, target, key);
    if (!ctx.expect.status(ex, 200, `POST ${target.template} answers 200`)) return;
    const again = await s.receiver.waitFor(matches, deliveryWaitMs(ctx), (m) => m.length > before, ctx.signal);
    if (
      !ctx.expect.that(again.length > before, {
        expected: `the same event arrives at the receiver again within ${deliveryWaitMs(ctx)} ms`,
        observed: `it arrived ${again.length} time(s) in all`,
        exchange: ex,
      })
    )
      return;
    // Required on every authenticated call: Idempotency-Key, "key against double effects". The call
    // repeated with its key may answer as it likes (the replay rules judge answers); it must not send
    // again. A deployment may send each delivery more than once (the retry policy is not shown): what
    // the first call sends is counted over the same wait first, so only the repeat's own effect counts.
    const waitMs = settleMs(ctx, Date.now() - sent);
    const settled = await s.receiver.waitFor(matches, waitMs, () => false, ctx.signal);
    const repeatSentAt = Date.now();
    const repeat = await redeliver(ctx, target, target.keyTaken ?? key);
    const all = await s.receiver.waitFor(matches, waitMs, (m) => m.length > settled.length, ctx.signal);
    const more = all.length - settled.length;
    const replayed = (repeat.json as { meta?: { replayed?: unknown } } | undefined)?.meta?.replayed === true;
    // Where keys are scoped per access (not shown), a key sent again with a renewed token is a new key there.
    const expired = replayUnjudged({ firstSentAt: sent }, repeatSentAt);
    if (more > 0 && !replayed && renewedBetween(ex, repeat))
      ctx.note(`the repeat of ${target.template} went with a renewed token: its effect not judged`);
    // One rule for every key sent again (key-validity.ts): a key's validity is not shown.
    else if (more > 0 && !replayed && expired)
      ctx.note(`the repeat of ${target.template}: ${expired}; its effect not judged`);
    else
      ctx.expect.that(more === 0, {
        expected: `POST ${target.template} repeated with the Idempotency-Key ${target.keyTaken ?? key} has no second effect: nothing more arrives (Required on every authenticated call: Idempotency-Key, "key against double effects")`,
        observed: `the first call sent ${settled.length - before} deliver${settled.length - before === 1 ? 'y' : 'ies'} of the event within ${waitMs} ms; the repeat (answered ${repeat.status}, meta.replayed ${JSON.stringify((repeat.json as { meta?: { replayed?: unknown } } | undefined)?.meta?.replayed)}) sent ${more} more within ${waitMs} ms`,
        exchange: repeat,
      });
    judgeResent(ctx, s, all.slice(before), ex);
    // A re-trigger is a modifying call: without a key it is refused ("modifying calls require an idempotency
    // key", 2026-06-12), 428 idempotency_required, as POST /connections and /webhooks are.
    const keyless = await redeliver(ctx, target, false);
    ctx.expect.errorCode(
      keyless,
      'idempotency_required',
      `POST ${target.template} without an Idempotency-Key answers 428 idempotency_required ("modifying calls require an idempotency key")`,
    );
    // A delivery that does not exist ("wrong identifier"), and this one under the second tenant ("entry belongs to
    // another tenant"), are not triggered: 404 not_found (400 for an id the deployment finds malformed; 403 where
    // the second tenant's access differs), never a success.
    const unknown = await redeliver(ctx, target, ctx.label('key-unknown'), { path: target.unknownPath });
    ctx.expect.that(unknown.status === 404 || unknown.status === 400, {
      expected: `POST ${target.template} for a delivery id that names no delivery (${target.unknownPath}) answers 404 not_found ("the entry does not exist: wrong identifier")`,
      observed: `${unknown.status}`,
      exchange: unknown,
    });
    const other = ctx.target.otherTenant;
    // Ids counted per tenant (their format is not shown) may name the second tenant's own receiver and delivery:
    // where its log answers at the same path, the same ids are its entries, not this one.
    const ownThere = async () =>
      s.webhookId !== undefined &&
      (await ctx.call('GET', await deliveriesPath(ctx, s.webhookId), { tenant: other })).status === 200;
    if (other) {
      const foreign = await redeliver(ctx, target, ctx.label('key-foreign'), { tenant: other });
      if (foreign.status >= 200 && foreign.status < 300 && (await ownThere()))
        ctx.note(
          `POST ${target.path} under tenant ${other} answered ${foreign.status}: that tenant has a receiver of the same id (ids counted per tenant), so the ids name its own delivery: not judged`,
        );
      else
        ctx.expect.that([401, 403, 404].includes(foreign.status), {
          expected: `POST ${target.path} under tenant ${other} (the delivery belongs to ${ctx.target.tenant}) answers 404 not_found ("entry belongs to another tenant"), or 403 for that tenant's access`,
          observed: `${foreign.status}`,
          exchange: foreign,
        });
    }
    // The same interface at the alternate address: the delivery is triggered again there too.
    if (ctx.target.altBaseUrl) {
      const counted = s.receiver.received.filter(matches).length;
      const there = await redeliver(ctx, target, ctx.label('key-alt'), { base: 'alt' });
      const accepted = ctx.expect.status(
        there,
        200,
        `POST ${target.path} at the alternate base URL answers 200, as at the main one (the same interface)`,
      );
      // An acknowledgement is not a delivery: what the alternate address triggers arrives as the main one's did.
      const arrived = accepted
        ? await s.receiver.waitFor(matches, deliveryWaitMs(ctx), (m) => m.length > counted, ctx.signal)
        : [];
      if (accepted)
        ctx.expect.that(arrived.length > counted, {
          expected: `the delivery triggered again at the alternate base URL arrives at the receiver again within ${deliveryWaitMs(ctx)} ms, as the main address's did`,
          observed: `nothing more arrived after its 200 (${counted} arrival(s) of the event before it)`,
          exchange: there,
        });
    }
    // "Deliveries are recorded in a delivery log": the delivery triggered again is still in it (or its new
    // delivery is: by the event id of the body either way).
    const log = target.logged ? await deliveryLog(ctx, s, s.delivery) : undefined;
    if (log?.status === 200)
      ctx.expect.that(findLogged(ctx, log, s.delivery, s.webhookId) !== undefined, {
        expected: 'the delivery log still lists the delivery after it was triggered again',
        observed: `${loggedDeliveries(log).length} entries, none naming it (event ${eventIdOf(s.delivery) ?? '?'})`,
        exchange: log,
      });
    // And it records the new delivery: an entry of its own, another attempt, a new time or status. A log read the
    // same as before the delivery came again (its data, the answer's meta aside) recorded none of it.
    // A paged log may put the new attempts on a page the kit did not read: judged where the page is the whole log.
    if (log?.status === 200 && target.logBefore !== undefined && nextPage(log) === undefined)
      ctx.expect.that(
        JSON.stringify((log.json as { data?: unknown } | undefined)?.data ?? log.json) !== target.logBefore,
        {
          expected:
            'the delivery log records the deliveries triggered again ("Deliveries are recorded in a delivery log"): it reads otherwise than before them',
          observed: 'the log reads exactly as before the delivery was triggered again',
          exchange: log,
        },
      );
    // For every tenant: the second tenant's own delivery triggered again there.
    await tenantTriggeredAgain(ctx);
  },
});
