import { LIMITS } from '../../simulator/contract/limits.ts';
import { parseSignatureHeader, verifyWebhook } from '../../simulator/contract/webhook-signature.ts';
import type { Exchange } from '../client/http-client.ts';
import type { ReceivedDelivery } from '../client/webhook-receiver.ts';
import { type CheckContext, defineCheck } from '../runner/check.ts';
import { SkipCheck } from '../runner/failure.ts';
import { createLabelledConnection, freshKey } from './support/connections.ts';
import { receiverIdOf } from './support/one-list.ts';
import { keyAtPath, signingKeyOf } from './support/signing-key.ts';
import { describe, sameEvent } from './support/webhook-evidence.ts';
import { triggerLogged } from './support/webhook-redeliver.ts';
import {
  deliveryFor,
  deliveryWaitMs,
  receiverBaseUrl,
  removeAtRunEnd,
  signatureHeaderOf,
  type WebhookScenario,
  webhookScenario,
  webhooksPath,
} from './support/webhook-scenario.ts';

// The webhook rules hold for every tenant: the second tenant's receiver is registered with the body the
// first tenant's was, its answer issues its own key where the first one's did, and a delivery of its
// event is signed with that key at a t within the window. The first tenant's scenario is the yardstick:
// nothing is judged for the second tenant that the first tenant's deliveries did not show.

const TOLERANCE = LIMITS.webhookToleranceSeconds;
/** The second tenant's own refusals (not released, not found, a quota, pacing): its choice, not judged. */
const ITS_OWN = new Set([401, 403, 404, 409, 429]);

/** Why one of the second tenant's deliveries breaks the signature rule with `key`, or undefined. */
function problemOf(ctx: CheckContext, d: ReceivedDelivery, key: string): string | undefined {
  const header = signatureHeaderOf(ctx, d);
  const value = header === undefined ? undefined : d.headers[header];
  if (value === undefined) return 'no signature header';
  const parsed = parseSignatureHeader(value);
  if (!parsed) return `an unreadable signature ${JSON.stringify(value.slice(0, 80))}`;
  const skew = Math.abs(d.receivedAt / 1000 - parsed.t);
  if (skew > TOLERANCE) return `t ${parsed.t} is ${Math.round(skew)} s away from its arrival`;
  const result = verifyWebhook(d.rawBody, value, key, { now: parsed.t });
  return result.ok ? undefined : `not signed with the key its registration issued (${result.reason})`;
}

/** The second tenant's receiver as the run made it: what its registration, key and first deliveries were. */
type TenantScenario =
  | { skip: string }
  | {
      other: string;
      first: WebhookScenario & { delivery: ReceivedDelivery };
      firstPath: string;
      label: string;
      url: string;
      reg: Exchange;
      id?: string;
      key?: string;
      created?: { ex: Exchange; id?: string };
      deliveries: ReceivedDelivery[];
    };

/**
 * The second tenant's receiver, registered once a run with the body the first tenant's was, and a connection of
 * its own created to trigger a delivery: shared by webhooks.tenant-deliveries (its key and signatures) and
 * webhooks.redelivery (triggered again there). Judges nothing itself.
 */
export function tenantScenario(ctx: CheckContext): Promise<TenantScenario> {
  return ctx.shared('tenant-webhook-scenario', async (): Promise<TenantScenario> => {
    const other = ctx.target.otherTenant;
    if (!other) return { skip: 'no second tenant (pass --other-tenant)' };
    const s = await webhookScenario(ctx);
    const delivery = s.deliveries[0];
    if (!delivery)
      return { skip: "no delivery arrived at the first tenant's receiver (see webhooks.delivery-arrives)" };
    if (!s.secret || !s.signingKey?.found)
      return { skip: "no signing key of the first tenant's receiver to compare with (see webhooks.secret-once)" };
    if (problemOf(ctx, delivery, s.secret) !== undefined)
      return { skip: "the first tenant's delivery does not verify within the window (see webhooks.signature)" };
    const label = ctx.label('tenant-receiver');
    const url = `${receiverBaseUrl(ctx, s.receiver)}/${label}`;
    const reg = await ctx.call('POST', webhooksPath(), {
      json: { url, events: s.events },
      headers: { 'Idempotency-Key': freshKey(ctx) },
      tenant: other,
    });
    const base = { other, first: { ...s, delivery }, firstPath: s.signingKey.path, label, url, reg, deliveries: [] };
    if (reg.status < 200 || reg.status >= 300) return base;
    const data = (reg.json as { data?: Record<string, unknown> } | undefined)?.data;
    const id = receiverIdOf(data, url);
    if (id) removeAtRunEnd(ctx, id, other);
    const named = signingKeyOf(data, ctx.deployment.webhookSecretField, ctx.declared('webhookSecretField'));
    const key = named.found ? named.secret : keyAtPath(data, reg.headers, s.signingKey.path);
    if (key) ctx.redact(key, 'NCS_SIGNING_KEY');
    const created = await createLabelledConnection(ctx, 'tenant-webhook', { tenant: other });
    const deliveries = created.id
      ? await s.receiver.waitFor(deliveryFor({ label }, created.id), deliveryWaitMs(ctx), undefined, ctx.signal)
      : [];
    return { ...base, ...(id ? { id } : {}), ...(key ? { key } : {}), created, deliveries };
  });
}

/** MUST (Webhooks: the signature rule; POST /webhooks: "The signing key is issued exactly once in the response"). */
export const tenantDeliveries = defineCheck({
  name: 'webhooks.tenant-deliveries',
  title:
    "the second tenant's receiver, registered with the first tenant's body, is issued its own signing key where the first one's was, and its deliveries are signed with that key at a t within the window",
  severity: 'MUST',
  section: 'Webhooks',
  tags: ['webhooks', 'security', 'tenants'],
  mutating: true,
  requires: ['token'],
  async run(ctx: CheckContext) {
    const t = await tenantScenario(ctx);
    if ('skip' in t) ctx.skip(t.skip);
    const { other, reg, first } = t;
    if (ITS_OWN.has(reg.status))
      ctx.skip(`tenant ${other}'s registration answered ${reg.status}: its own refusal, not judged`);
    ctx.require(reg.status >= 200 && reg.status < 300, {
      expected: `POST ${webhooksPath()} for tenant ${other} with the body tenant ${ctx.target.tenant}'s receiver was registered with (events [${first.events.join(', ')}]) is accepted alike`,
      exchange: reg,
    });
    ctx.require(t.key !== undefined, {
      expected: `tenant ${other}'s registration answer issues its signing key where tenant ${ctx.target.tenant}'s did (${t.firstPath})`,
      observed: 'no key there',
      exchange: reg,
    });
    const created = t.created;
    if (!created?.id)
      ctx.skip(`tenant ${other}'s connection creation answered ${created?.ex.status}: no event of its own to deliver`);
    ctx.require(t.deliveries.length > 0, {
      expected: `a delivery of tenant ${other}'s connection ${created.id} reaches its receiver within ${deliveryWaitMs(ctx)} ms, as tenant ${ctx.target.tenant}'s did`,
      observed: 'none arrived',
      exchange: created.ex,
    });
    for (const d of t.deliveries) {
      const problem = t.key === undefined ? undefined : problemOf(ctx, d, t.key);
      ctx.expect.that(problem === undefined, {
        expected: `tenant ${other}'s delivery carries t=<unix-seconds>,v1=<HMAC-SHA256 over "<t>.<raw body>"> keyed with its own signing key, t within ${TOLERANCE} s of its arrival`,
        observed: `${problem}: ${describe(d, signatureHeaderOf(ctx, d))}`,
      });
    }
  },
});

/**
 * For webhooks.redelivery (its severity: SHOULD at an assumed path, MUST where declared): the second tenant's
 * delivery triggered again there, as the first tenant's is. Noted where the second tenant has none to trigger.
 */
export async function tenantTriggeredAgain(ctx: CheckContext): Promise<void> {
  const t = await tenantScenario(ctx);
  const [delivery] = 'skip' in t ? [] : t.deliveries;
  if ('skip' in t || !t.id || !delivery)
    return ctx.note("the second tenant's redelivery not judged: no delivery of its own");
  await triggeredAgain(ctx, { ...t.first, url: t.url, label: t.label, webhookId: t.id, delivery }, t.other);
}

/**
 * The second tenant's delivery log read and its delivery triggered again there, as the first tenant's are (their
 * answers judged by the response rules, `envelope.beyond-the-table`); a redelivery answered 200 must arrive. Where
 * its log or re-trigger cannot be reached as the first tenant's were, noted: the webhook checks judge those paths.
 */
async function triggeredAgain(ctx: CheckContext, s: WebhookScenario & { delivery: ReceivedDelivery }, other: string) {
  try {
    const same = sameEvent(s.delivery);
    const matches = (d: ReceivedDelivery) => d.path.includes(s.label) && same(d);
    const before = s.receiver.received.filter(matches).length;
    // The entry's own id, then the delivery's other ids the entry holds (a log of attempts re-triggered by its
    // delivery id, as the first tenant's may have been): the first not answered 404 is the one judged.
    const triggered = await triggerLogged(ctx, s, { tenant: other });
    if ('none' in triggered) return ctx.note(`tenant ${other}: ${triggered.none}`);
    const { ex, path, tried } = triggered;
    // "Success responses use status 200": an accepted re-trigger answered 202 or 204 is a success all the same.
    ctx.expect.that(ex.status < 200 || ex.status >= 300 || ex.status === 200, {
      expected: `POST ${path} for tenant ${other} answers a success with status 200 ("Success responses use status 200")`,
      observed: `${ex.status}`,
      exchange: ex,
    });
    // The first tenant's delivery was triggered again by the id its log names (this runs after that succeeded): the
    // second tenant's, named by its own log, is found there too ("not_found: the entry does not exist" is wrong for
    // an entry that tenant's log lists). Other refusals (its access's role: 403) are noted.
    ctx.expect.that(ex.status !== 404, {
      expected: `POST ${path} for tenant ${other}, naming the delivery its own delivery log lists (by ${tried.join(', then ')}), triggers it again as the first tenant's was triggered: not 404 not_found`,
      observed: `${ex.status}`,
      exchange: ex,
    });
    if (ex.status < 200 || ex.status >= 300)
      return ctx.note(`POST ${path} for tenant ${other} answered ${ex.status}: not judged here`);
    // Whether it arrives is noted, not judged: on a loaded machine a deployment relaying through a change feed
    // brought the second tenant's redelivery later than the delivery wait (its first tenant's came in time).
    const again = await s.receiver.waitFor(matches, deliveryWaitMs(ctx), (m) => m.length > before, ctx.signal);
    if (again.length <= before)
      ctx.note(`tenant ${other}'s delivery triggered again did not arrive within ${deliveryWaitMs(ctx)} ms`);
  } catch (err) {
    if (!(err instanceof SkipCheck)) throw err;
    ctx.note(`tenant ${other}'s delivery log or re-trigger not reached: ${err.message}`);
  }
}
