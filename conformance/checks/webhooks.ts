import { LIMITS } from '../../simulator/contract/limits.ts';
import { parseSignatureHeader, verifyWebhook } from '../../simulator/contract/webhook-signature.ts';
import type { Exchange } from '../client/http-client.ts';
import type { ReceivedDelivery } from '../client/webhook-receiver.ts';
import { type CheckContext, defineCheck } from '../runner/check.ts';
import {
  deliveryWaitMs,
  deliveriesPath,
  deliveryLogTemplate,
  redeliverPath,
  redeliverTemplate,
  requireDelivery,
  signatureHeaderOf,
  skipUnlessDeclared,
  type WebhookScenario,
  webhookScenario,
  webhooksPath,
  webhookTestEvent,
} from './support/webhook-scenario.ts';
import { must } from '../runner/invariant.ts';

const WEBHOOK = 'POST /api/public/v1/webhooks (appears in a sample call only)' as const;
const TOLERANCE = LIMITS.webhookToleranceSeconds;
/** The deployment profile's delivery-id header (the interface names none), lower case; undefined: none. */
const deliveryIdHeader = (ctx: CheckContext) => ctx.deployment.webhookDeliveryIdHeader?.toLowerCase();

/** Receiving evidence as a failure's observation (the exchange is the call that triggered it). */
const describe = (d: ReceivedDelivery, header: string | undefined) =>
  `${d.method} ${d.path} with ${header ? `${header}: ${d.headers[header.toLowerCase()] ?? '(absent)'}` : `headers ${Object.keys(d.headers).join(', ')}`}; body ${d.rawBody.toString('utf8').slice(0, 160)}`;

export const registration = defineCheck({
  name: 'webhooks.registration',
  title: 'POST /webhooks with url, events and an Idempotency-Key registers a receiver: 200 with the success envelope',
  severity: 'MUST',
  section: WEBHOOK,
  tags: ['webhooks'],
  mutating: true,
  requires: ['token'],
  async run(ctx: CheckContext) {
    const s = await webhookScenario(ctx);
    const event = webhookTestEvent(ctx);
    // A 400 for a guessed event name is the deployment's legal choice of names, not a refusal to register.
    if (s.registration.status === 400) skipUnlessDeclared(ctx, 'the deployment refused the registration (400)');
    ctx.expect.status(
      s.registration,
      200,
      `POST ${webhooksPath()} with url ${s.url} and events [${event.name}] answers 200`,
    );
    const body = s.registration.json as { ok?: unknown; data?: unknown } | undefined;
    ctx.expect.that(body?.ok === true && typeof body.data === 'object' && body.data !== null, {
      expected: 'the answer is the success envelope with a data object',
      exchange: s.registration,
    });
  },
});

/** GET answers after the creation that must not repeat the secret: list, one receiver, delivery log (where offered). */
async function laterAnswers(ctx: CheckContext, s: WebhookScenario): Promise<Exchange[]> {
  const calls = [ctx.call('GET', webhooksPath())];
  if (s.webhookId) calls.push(ctx.call('GET', `${webhooksPath()}/${encodeURIComponent(s.webhookId)}`));
  if (s.webhookId && ctx.deployment.webhookDeliveryLogPath !== null)
    calls.push(ctx.call('GET', deliveriesPath(ctx, s.webhookId)));
  return Promise.all(calls);
}

export const secretOnce = defineCheck({
  name: 'webhooks.secret-once',
  title: 'the signing key is in the creation answer and in no later answer (list, receiver, delivery log)',
  severity: 'MUST',
  section: WEBHOOK,
  tags: ['webhooks', 'security'],
  mutating: true,
  requires: ['token'],
  async run(ctx: CheckContext) {
    const s = await webhookScenario(ctx);
    const field = ctx.deployment.webhookSecretField;
    if (s.registration.status === 400) skipUnlessDeclared(ctx, 'the deployment refused the registration (400)');
    ctx.require(s.registration.status >= 200 && s.registration.status < 300, {
      expected: 'the receiver was registered (see webhooks.registration)',
      exchange: s.registration,
    });
    ctx.require(s.secret !== undefined, {
      expected: `the creation answer shows the signing key in data.${field} (deployment profile webhookSecretField)`,
      observed: 'absent or empty',
      exchange: s.registration,
    });
    for (const ex of await laterAnswers(ctx, s)) {
      if (ex.status === 404) {
        ctx.note(`${ex.method} ${new URL(ex.url).pathname} is not offered (404): nothing to judge there`);
        continue;
      }
      ctx.expect.that(!ex.text.includes(s.secret), {
        expected: `${ex.method} ${new URL(ex.url).pathname} does not show the signing key again`,
        observed: 'the answer contains the signing key',
        exchange: ex,
      });
    }
  },
});

export const deliveryArrives = defineCheck({
  name: 'webhooks.delivery-arrives',
  title:
    'a change the receiver subscribed to is delivered to it: a POST arrives within the delivery wait (--webhook-timeout)',
  severity: 'MUST',
  section: 'Webhooks',
  tags: ['webhooks'],
  mutating: true,
  requires: ['token'],
  async run(ctx: CheckContext) {
    const s = await webhookScenario(ctx);
    if (s.registration.status === 400) skipUnlessDeclared(ctx, 'the deployment refused the registration (400)');
    ctx.require(s.registration.status >= 200 && s.registration.status < 300, {
      expected: 'the receiver was registered (see webhooks.registration)',
      exchange: s.registration,
    });
    const event = webhookTestEvent(ctx).name;
    ctx.require(s.connection?.id !== undefined, {
      expected: `a labelled connection is created to trigger ${event}`,
      ...(s.connection ? { exchange: s.connection.ex } : {}),
    });
    if (s.deliveries.length === 0) skipUnlessDeclared(ctx, `no delivery arrived within ${deliveryWaitMs(ctx)} ms`);
    ctx.expect.that(s.deliveries.length > 0, {
      expected: `a delivery of ${event} naming connection ${s.connection.id} reaches ${s.url} within ${deliveryWaitMs(ctx)} ms`,
      observed: `the receiver got ${s.receiver.received.filter((d) => d.path.includes(s.label)).length} request(s) on its path, none naming the connection`,
      exchange: s.connection.ex,
    });
    for (const d of s.deliveries)
      ctx.expect.that(d.method === 'POST', {
        expected: 'deliveries are POST requests',
        observed: describe(d, signatureHeaderOf(ctx, d)),
      });
  },
});

export const signature = defineCheck({
  name: 'webhooks.signature',
  title:
    'every delivery carries t=<unix-seconds>,v1=<lowercase hex HMAC-SHA256 over "<t>.<raw body>"> keyed with the signing key',
  severity: 'MUST',
  section: 'Webhooks',
  tags: ['webhooks', 'security'],
  mutating: true,
  requires: ['token'],
  async run(ctx: CheckContext) {
    const s = await requireDelivery(ctx);
    if (!s.secret) ctx.skip('no signing key to verify with (see webhooks.secret-once)');
    for (const d of s.deliveries) {
      const header = signatureHeaderOf(ctx, d);
      const value = header === undefined ? undefined : d.headers[header];
      const parsed = value === undefined ? undefined : parseSignatureHeader(value);
      if (
        !ctx.expect.that(
          value !== undefined && parsed !== undefined && /(?:^|,)\s*v1=[0-9a-f]{64}\s*(?:,|$)/.test(value),
          {
            expected: ctx.deployment.webhookSignatureHeader
              ? `the delivery carries ${header}: t=<unix-seconds>,v1=<64 lowercase hex digits> (deployment profile webhookSignatureHeader)`
              : 'a header of the delivery has the form t=<unix-seconds>,v1=<64 lowercase hex digits> (its name is not shown by the interface)',
            observed: describe(d, header),
          },
        ) ||
        value === undefined ||
        parsed === undefined
      )
        continue;
      // The time window is webhooks.timestamp's rule: verify the signature at its own time.
      const result = verifyWebhook(d.rawBody, value, s.secret, { now: parsed.t });
      ctx.expect.that(result.ok, {
        expected: `${header} holds the HMAC-SHA256 of "<t>.<raw body>" keyed with the signing key`,
        observed: `${result.ok ? '' : result.reason}: ${describe(d, header)}`,
      });
    }
  },
});

export const timestamp = defineCheck({
  name: 'webhooks.timestamp',
  title: `the signature's t lies within ${TOLERANCE} s of the time the delivery arrives`,
  severity: 'MUST',
  section: 'Webhooks',
  tags: ['webhooks', 'security'],
  mutating: true,
  requires: ['token'],
  async run(ctx: CheckContext) {
    const s = await requireDelivery(ctx);
    const stamped = s.deliveries
      .map((d) => ({ d, header: signatureHeaderOf(ctx, d) }))
      .map(({ d, header }) => ({ d, header, t: parseSignatureHeader(header ? (d.headers[header] ?? '') : '')?.t }))
      .filter((x): x is typeof x & { t: number } => x.t !== undefined);
    if (stamped.length === 0) ctx.skip('no delivery carries a readable signature header (see webhooks.signature)');
    for (const { d, t, header } of stamped) {
      const skew = Math.abs(d.receivedAt / 1000 - t);
      ctx.expect.that(skew <= TOLERANCE, {
        expected: `t is within ${TOLERANCE} s of the arrival time (receivers reject older or newer deliveries)`,
        observed: `t ${t} is ${Math.round(skew)} s away from arrival: ${describe(d, header)}`,
      });
    }
  },
});

/** The delivery's entry in the log, found by the delivery-id header or the event id in the body. */
function findLogged(ctx: CheckContext, ex: Exchange, d: ReceivedDelivery) {
  const list = (ex.json as { data?: { deliveries?: unknown } } | undefined)?.data?.deliveries;
  let eventId: unknown;
  try {
    eventId = (JSON.parse(d.rawBody.toString('utf8')) as { id?: unknown }).id;
  } catch {
    eventId = undefined;
  }
  const idHeader = deliveryIdHeader(ctx);
  const headerId = idHeader === undefined ? undefined : d.headers[idHeader];
  return (Array.isArray(list) ? (list as { id?: unknown; eventId?: unknown }[]) : []).find(
    (x) => (headerId && x.id === headerId) || (eventId !== undefined && x.eventId === eventId),
  );
}

/** The delivery log's answer for the scenario's receiver, or a skip when the deployment does not offer it at the profile's path. */
async function deliveryLog(ctx: CheckContext, s: WebhookScenario) {
  const template = deliveryLogTemplate(ctx);
  if (!s.webhookId) ctx.skip("the creation answer has no data.id to find the receiver's delivery log with");
  const ex = await ctx.call('GET', deliveriesPath(ctx, s.webhookId));
  // Declared by the deployment, a 404 there is its failure; assumed (the simulator's path), a skip.
  if (ex.status === 404 && !ctx.declared('webhookDeliveryLogPath'))
    ctx.skip(
      `the delivery log's paths are not shown by the interface and this deployment does not offer GET ${template}: declare its path as webhookDeliveryLogPath in the deployment profile (null: it has none)`,
    );
  return ex;
}

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
    const body = s.delivery.rawBody;
    const before = s.receiver.received.filter((d) => d.path.includes(s.label) && d.rawBody.equals(body)).length;
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
      (d) => d.path.includes(s.label) && d.rawBody.equals(body),
      deliveryWaitMs(ctx),
      (m) => m.length > before,
    );
    ctx.expect.that(again.length > before, {
      expected: `the same event arrives at the receiver again within ${deliveryWaitMs(ctx)} ms`,
      observed: `it arrived ${again.length} time(s) in all`,
      exchange: ex,
    });
  },
});

export const webhookChecks = [
  registration,
  secretOnce,
  deliveryArrives,
  signature,
  timestamp,
  deliveryLogged,
  redelivery,
];
