import { type CheckContext, defineCheck } from '../runner/check.ts';
import { testEvent } from './support/webhook-events.ts';
import { describe } from './support/webhook-evidence.ts';
import { requireDelivery } from './support/webhook-scenario.ts';

/**
 * SHOULD (Webhooks: "registered … giving a url and a list of event names"): a receiver gets the events
 * it registered for. The delivery's payload is not shown, so the kit assumes a delivery names its
 * event somewhere (body or a header) and judges that what the receiver got names the event it
 * registered: a delivery naming only another event was sent for something the receiver never asked for.
 */
export const subscribedEvent = defineCheck({
  name: 'webhooks.subscribed-event',
  title: 'a delivery to a receiver names an event the receiver registered for',
  severity: 'SHOULD',
  section: 'Webhooks',
  tags: ['webhooks'],
  mutating: true,
  requires: ['token'],
  async run(ctx: CheckContext) {
    const s = await requireDelivery(ctx);
    const { name } = await testEvent(ctx);
    for (const d of s.deliveries) {
      const text = `${d.rawBody.toString('utf8')}\n${Object.values(d.headers).join('\n')}`;
      ctx.expect.that(text.includes(`"${name}"`) || Object.values(d.headers).includes(name), {
        expected: `the delivery names the event ${name} the receiver registered for (in its body or a header)`,
        observed: describe(d, undefined),
      });
    }
  },
});
