import type { Exchange } from '../client/http-client.ts';
import { type CheckContext, defineCheck } from '../runner/check.ts';
import { type OpenApiLike, openApiExchange } from './support/openapi.ts';
import { skipUnlessDeclared, testEvent } from './support/webhook-events.ts';
import { describe } from './support/webhook-evidence.ts';
import { webhookRoute } from './support/webhook-routes.ts';
import {
  deliveriesPath,
  deliveryWaitMs,
  signatureHeaderOf,
  type WebhookScenario,
  webhookScenario,
  webhooksPath,
} from './support/webhook-scenario.ts';
import { entryReads } from './tenant-entries.ts';

const WEBHOOK = 'POST /api/public/v1/webhooks (appears in a sample call only)' as const;

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
    const event = await testEvent(ctx);
    if (!event.declared) ctx.note(`subscribed to ${event.name}, taken from ${event.source}`);
    // A 400 for a guessed event name is the deployment's legal choice of names, not a refusal to register.
    if (s.registration.status === 400) await skipUnlessDeclared(ctx, 'the deployment refused the registration (400)');
    ctx.expect.status(
      s.registration,
      200,
      `POST ${webhooksPath()} with url ${s.url} and events [${s.events.join(', ')}] answers 200`,
    );
    const body = s.registration.json as { ok?: unknown; data?: unknown } | undefined;
    ctx.expect.that(body?.ok === true && typeof body.data === 'object' && body.data !== null, {
      expected: 'the answer is the success envelope with a data object',
      exchange: s.registration,
    });
    // Response fields are not shown; where the answer repeats the list, it is the list registered.
    const echoed = echoedEvents(body?.data);
    if (s.registration.status === 200 && echoed) {
      const lost = s.events.filter((e) => !echoed.includes(e));
      ctx.expect.that(lost.length === 0, {
        expected: `the receiver is registered for every event name given (${s.events.join(', ')}): the answer's events list each`,
        observed: `events ${JSON.stringify(echoed)} (without ${lost.join(', ')})`,
        exchange: s.registration,
      });
    }
  },
});

/** The answer's list of event names (data.events, or one level down: data.webhook.events), if it has one. */
function echoedEvents(data: unknown): string[] | undefined {
  if (!data || typeof data !== 'object') return undefined;
  const d = data as Record<string, unknown>;
  const candidates = [
    d.events,
    ...Object.values(d).map((v) => (v && typeof v === 'object' ? (v as Record<string, unknown>).events : undefined)),
  ];
  const list = candidates.find((v) => Array.isArray(v) && v.every((x) => typeof x === 'string'));
  return list as string[] | undefined;
}

/** GET answers after the creation that must not repeat the secret: list, one receiver, delivery log (where offered), at both addresses. */
async function laterAnswers(ctx: CheckContext, s: WebhookScenario): Promise<Exchange[]> {
  const calls = [ctx.call('GET', webhooksPath())];
  if (s.webhookId) calls.push(ctx.call('GET', `${webhooksPath()}/${encodeURIComponent(s.webhookId)}`));
  // The receiver read as the deployment documents it, under whatever collection it manages receivers in
  // (`/webhook-subscriptions/{id}`): the key must not come back there either.
  const doc = await openApiExchange(ctx);
  const own = `${webhooksPath()}/{`;
  if (s.webhookId && doc.status === 200)
    for (const read of entryReads(doc.json as OpenApiLike))
      if (read.collection === 'webhooks' && !read.belongs && !read.path.startsWith(own))
        calls.push(ctx.call('GET', read.path.replace(/\{[^}]+\}/, encodeURIComponent(s.webhookId))));
  const log = s.webhookId && (await webhookRoute(ctx, 'webhookDeliveryLogPath')).template;
  if (s.webhookId && log) calls.push(ctx.call('GET', await deliveriesPath(ctx, s.webhookId)));
  // The same interface at the alternate address: its reads of the receiver must not show the key either.
  if (ctx.target.altBaseUrl) {
    calls.push(ctx.call('GET', webhooksPath(), { base: 'alt' }));
    if (s.webhookId)
      calls.push(ctx.call('GET', `${webhooksPath()}/${encodeURIComponent(s.webhookId)}`, { base: 'alt' }));
  }
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
    if (s.registration.status === 400) await skipUnlessDeclared(ctx, 'the deployment refused the registration (400)');
    ctx.require(s.registration.status >= 200 && s.registration.status < 300, {
      expected: 'the receiver was registered (see webhooks.registration)',
      exchange: s.registration,
    });
    const key = s.signingKey;
    // Undeclared, the key's place is the kit's guess ("Response fields: not shown"): not finding it is no failure.
    if (key && !key.found && !key.declared && !key.absent)
      ctx.skip(
        `${key.why}; the interface says only that the key is issued exactly once in the response: name its field as webhookSecretField in the deployment profile (a dotted path under data, e.g. credentials.signingKey)`,
      );
    ctx.require(s.secret !== undefined, {
      expected: ctx.declared('webhookSecretField')
        ? `the creation answer shows the signing key in data.${field} (deployment profile webhookSecretField)`
        : 'the creation answer issues the signing key that signs its deliveries',
      observed: key && !key.found ? key.why : 'absent or empty',
      exchange: s.registration,
    });
    if (key?.found && (key.how === 'discovered' || key.how === 'verified'))
      ctx.note(
        `the signing key was found, not declared, at ${key.path.startsWith('(') ? key.path : `data.${key.path}`} (${key.how === 'verified' ? 'it verifies the delivery received' : 'named like a key'}${key.path.startsWith('(') ? '' : '; the deployment profile can declare it as webhookSecretField'})`,
      );
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
    if (s.registration.status === 400) await skipUnlessDeclared(ctx, 'the deployment refused the registration (400)');
    ctx.require(s.registration.status >= 200 && s.registration.status < 300, {
      expected: 'the receiver was registered (see webhooks.registration)',
      exchange: s.registration,
    });
    const event = (await testEvent(ctx)).name;
    ctx.require(s.connection?.id !== undefined, {
      expected: `a labelled connection is created to trigger ${event}`,
      ...(s.connection ? { exchange: s.connection.ex } : {}),
    });
    const onPath = s.receiver.received.filter((d) => d.path.includes(s.label)).length;
    if (s.deliveries.length === 0)
      await skipUnlessDeclared(
        ctx,
        onPath > 0
          ? `${onPath} request(s) arrived on the receiver's path within ${deliveryWaitMs(ctx)} ms, none naming the connection (in its body, its JSON strings or their base64)`
          : `no delivery arrived within ${deliveryWaitMs(ctx)} ms`,
      );
    ctx.expect.that(s.deliveries.length > 0, {
      expected: `a delivery of ${event} naming connection ${s.connection.id} reaches ${s.url} within ${deliveryWaitMs(ctx)} ms`,
      observed: `the receiver got ${onPath} request(s) on its path, none naming the connection`,
      exchange: s.connection.ex,
    });
    for (const d of s.deliveries)
      ctx.expect.that(d.method === 'POST', {
        expected: 'deliveries are POST requests',
        observed: describe(d, signatureHeaderOf(ctx, d)),
      });
  },
});
