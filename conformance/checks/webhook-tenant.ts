import { LIMITS } from '../../simulator/contract/limits.ts';
import { parseSignatureHeader, verifyWebhook } from '../../simulator/contract/webhook-signature.ts';
import type { ReceivedDelivery } from '../client/webhook-receiver.ts';
import { type CheckContext, defineCheck } from '../runner/check.ts';
import { createLabelledConnection, freshKey } from './support/connections.ts';
import { receiverIdOf } from './support/one-list.ts';
import { keyAtPath, signingKeyOf } from './support/signing-key.ts';
import { describe } from './support/webhook-evidence.ts';
import {
  deliveryFor,
  deliveryWaitMs,
  receiverBaseUrl,
  removeAtRunEnd,
  requireDelivery,
  signatureHeaderOf,
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
    const other = ctx.target.otherTenant;
    if (!other) ctx.skip('no second tenant (pass --other-tenant)');
    const s = await requireDelivery(ctx);
    if (!s.secret || !s.signingKey?.found)
      ctx.skip("no signing key of the first tenant's receiver to compare with (see webhooks.secret-once)");
    const firstPath = s.signingKey.path;
    if (problemOf(ctx, s.delivery, s.secret) !== undefined)
      ctx.skip("the first tenant's delivery does not verify within the window (see webhooks.signature)");
    const label = ctx.label('tenant-receiver');
    const url = `${receiverBaseUrl(ctx, s.receiver)}/${label}`;
    const reg = await ctx.call('POST', webhooksPath(), {
      json: { url, events: s.events },
      headers: { 'Idempotency-Key': freshKey(ctx) },
      tenant: other,
    });
    if (ITS_OWN.has(reg.status))
      ctx.skip(`tenant ${other}'s registration answered ${reg.status}: its own refusal, not judged`);
    ctx.require(reg.status >= 200 && reg.status < 300, {
      expected: `POST ${webhooksPath()} for tenant ${other} with the body tenant ${ctx.target.tenant}'s receiver was registered with (events [${s.events.join(', ')}]) is accepted alike`,
      exchange: reg,
    });
    const data = (reg.json as { data?: Record<string, unknown> } | undefined)?.data;
    const id = receiverIdOf(data, url);
    if (id) removeAtRunEnd(ctx, id, other);
    const named = signingKeyOf(data, ctx.deployment.webhookSecretField, ctx.declared('webhookSecretField'));
    const key = named.found ? named.secret : keyAtPath(data, reg.headers, firstPath);
    ctx.require(key !== undefined, {
      expected: `tenant ${other}'s registration answer issues its signing key where tenant ${ctx.target.tenant}'s did (${firstPath})`,
      observed: 'no key there',
      exchange: reg,
    });
    if (key) ctx.redact(key, 'NCS_SIGNING_KEY');
    const created = await createLabelledConnection(ctx, 'tenant-webhook', { tenant: other });
    if (!created.id)
      ctx.skip(`tenant ${other}'s connection creation answered ${created.ex.status}: no event of its own to deliver`);
    const deliveries = await s.receiver.waitFor(
      deliveryFor({ label }, created.id),
      deliveryWaitMs(ctx),
      undefined,
      ctx.signal,
    );
    ctx.require(deliveries.length > 0, {
      expected: `a delivery of tenant ${other}'s connection ${created.id} reaches its receiver within ${deliveryWaitMs(ctx)} ms, as tenant ${ctx.target.tenant}'s did`,
      observed: 'none arrived',
      exchange: created.ex,
    });
    for (const d of deliveries) {
      const problem = key === undefined ? undefined : problemOf(ctx, d, key);
      ctx.expect.that(problem === undefined, {
        expected: `tenant ${other}'s delivery carries t=<unix-seconds>,v1=<HMAC-SHA256 over "<t>.<raw body>"> keyed with its own signing key, t within ${TOLERANCE} s of its arrival`,
        observed: `${problem}: ${describe(d, signatureHeaderOf(ctx, d))}`,
      });
    }
  },
});
