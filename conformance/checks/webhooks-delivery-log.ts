import { verifyWebhook } from '../../simulator/contract/webhook-signature.ts';
import { type CheckContext, defineCheck } from '../runner/check.ts';
import { must } from '../runner/invariant.ts';
import { deliveryIdHeader, deliveryLog, describe, findLogged, sameEvent } from './support/webhook-evidence.ts';
import {
  deliveryLogTemplate,
  deliveryWaitMs,
  redeliverPath,
  redeliverTemplate,
  requireDelivery,
  signatureHeaderOf,
} from './support/webhook-scenario.ts';

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
    const ex = await deliveryLog(ctx, s);
    if (!ctx.expect.status(ex, 200, `GET ${deliveryLogTemplate(ctx)} answers 200`)) return;
    const idHeader = deliveryIdHeader(ctx);
    ctx.expect.that(findLogged(ctx, ex, s.delivery) !== undefined, {
      expected: `the delivery log lists the delivery the receiver got (${idHeader === undefined ? 'by the event id of its body' : `${idHeader} ${s.delivery.headers[idHeader] ?? '?'}, or the event id of its body`})`,
      exchange: ex,
    });
  },
});

export const redelivery = defineCheck({
  name: 'webhooks.redelivery',
  title: 'a logged delivery triggered again arrives at the receiver again with the same event',
  // SHOULD at the simulator's paths (assumed: the interface does not show them); MUST where the
  // deployment profile declares the path (judgeAsMust below), as the severity policy says.
  severity: 'SHOULD',
  section: 'Webhooks',
  tags: ['webhooks'],
  mutating: true,
  requires: ['token'],
  async run(ctx: CheckContext) {
    if (ctx.declared('webhookRedeliverPath')) ctx.judgeAsMust('the deployment profile declares webhookRedeliverPath');
    const s = await requireDelivery(ctx);
    const template = redeliverTemplate(ctx);
    const log = await deliveryLog(ctx, s);
    const logged = findLogged(ctx, log, s.delivery) as { id?: unknown } | undefined;
    const idHeader = deliveryIdHeader(ctx);
    const id =
      typeof logged?.id === 'string' ? logged.id : idHeader === undefined ? undefined : s.delivery.headers[idHeader];
    if (!id)
      ctx.skip(
        `the delivery is neither in the log nor names its id in a header (deployment profile webhookDeliveryIdHeader: ${idHeader ?? 'null'}): nothing to trigger again`,
      );
    const same = sameEvent(s.delivery);
    const before = s.receiver.received.filter((d) => d.path.includes(s.label) && same(d)).length;
    const ex = await ctx.call(
      'POST',
      redeliverPath(ctx, must(s.webhookId, 'deliveryLog skips without a webhookId'), id),
      {
        headers: { 'Idempotency-Key': ctx.label('key') },
      },
    );
    if (ex.status === 404 && !ctx.declared('webhookRedeliverPath'))
      ctx.skip(
        `this deployment does not offer POST ${template} (the interface does not show the path): declare it as webhookRedeliverPath in the deployment profile (null: it has none)`,
      );
    if (!ctx.expect.status(ex, 200, `POST ${template} answers 200`)) return;
    const again = await s.receiver.waitFor(
      (d) => d.path.includes(s.label) && same(d),
      deliveryWaitMs(ctx),
      (m) => m.length > before,
      ctx.signal,
    );
    ctx.expect.that(again.length > before, {
      expected: `the same event arrives at the receiver again within ${deliveryWaitMs(ctx)} ms`,
      observed: `it arrived ${again.length} time(s) in all`,
      exchange: ex,
    });
    // A delivery triggered again is a delivery: signed over its raw body, at the time it is sent.
    if (!s.secret) return;
    const secret = s.secret;
    for (const d of again.slice(before)) {
      const header = signatureHeaderOf(ctx, d);
      const value = header === undefined ? undefined : d.headers[header];
      const result =
        value === undefined
          ? undefined
          : verifyWebhook(d.rawBody, value, secret, { now: Math.floor(d.receivedAt / 1000) });
      ctx.expect.that(result?.ok === true, {
        expected:
          'the delivery triggered again carries a valid signature whose t lies within 300 s of its arrival (receivers reject it otherwise)',
        observed: `${result && !result.ok ? result.reason : 'no signature header'}: ${describe(d, header)}`,
        exchange: ex,
      });
    }
  },
});
