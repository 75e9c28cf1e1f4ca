import { LIMITS } from '../../simulator/contract/limits.ts';
import { parseSignatureHeader, verifyWebhook } from '../../simulator/contract/webhook-signature.ts';
import { type CheckContext, defineCheck } from '../runner/check.ts';
import { describe } from './support/webhook-evidence.ts';
import { requireDelivery, signatureHeaderOf } from './support/webhook-scenario.ts';

const TOLERANCE = LIMITS.webhookToleranceSeconds;

/**
 * "The header value has the form t=<unix-seconds>,v1=<hex-signature>": t first, then v1 (spaces after
 * the comma and further comma-separated parts after it are tolerated). A receiver written to that form
 * (split at the first comma, read t, then v1) rejects `v1=…,t=…`, however lenient the kit's own parser is.
 */
export const SIGNATURE_FORM = /^\s*t=\d+\s*,\s*v1=[0-9a-f]{64}\s*(?:,|$)/;

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
        !ctx.expect.that(value !== undefined && parsed !== undefined && SIGNATURE_FORM.test(value), {
          expected: ctx.deployment.webhookSignatureHeader
            ? `the delivery carries ${header}: t=<unix-seconds>,v1=<64 lowercase hex digits> (deployment profile webhookSignatureHeader)`
            : 'a header of the delivery has the form t=<unix-seconds>,v1=<64 lowercase hex digits> (its name is not shown by the interface)',
          observed: describe(d, header),
        }) ||
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
