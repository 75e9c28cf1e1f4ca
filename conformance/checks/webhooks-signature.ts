import { LIMITS } from '../../simulator/contract/limits.ts';
import { parseSignatureHeader, verifyWebhook } from '../../simulator/contract/webhook-signature.ts';
import type { ReceivedDelivery } from '../client/webhook-receiver.ts';
import { type CheckContext, defineCheck } from '../runner/check.ts';
import { knownSigningKeys, labelOfPath } from './support/known-signing-keys.ts';
import { describe } from './support/webhook-evidence.ts';
import { requireDelivery, signatureHeaderOf } from './support/webhook-scenario.ts';
import { FORM_EXPECTED, formProblems, SIGNATURE_FORM } from './support/webhook-signature-form.ts';

const TOLERANCE = LIMITS.webhookToleranceSeconds;

// The form (t first, then v1, exactly) lives in support/webhook-signature-form.ts: webhooks.signature and
// webhooks.redelivery judge it alike.
export { SIGNATURE_FORM };

/**
 * Every delivery the kit's receiver got during the run, not only the first one: retries,
 * redeliveries (webhooks.redelivery triggers one) and deliveries to the kit's other receivers are
 * deliveries too, and the signature rule has no exception for later attempts. The scenario's first
 * deliveries must carry a signature; any other request is judged when it carries one. Deliveries to the
 * scenario's receiver and to the receivers whose key the run recorded (knownSigningKeys) are verified with
 * their key: the others are judged by form.
 */
/** How far a later attempt's t may lie from its arrival and still be read as unix seconds (a day). */
const UNIX_SECONDS_SLACK_S = 86_400;

async function judgeDeliveries(ctx: CheckContext) {
  const s = await requireDelivery(ctx);
  if (!s.secret) ctx.skip('no signing key to verify with (see webhooks.secret-once)');
  const secret = s.secret;
  const known = await knownSigningKeys(ctx);
  /** Why one delivery breaks the rule (undefined: it keeps it); `mustSign`: a missing header counts. */
  const problemOf = (d: ReceivedDelivery, header: string | undefined, mustSign: boolean) => {
    const value = header === undefined ? undefined : d.headers[header];
    if (value === undefined) return mustSign ? 'no signature header' : undefined;
    const parsed = parseSignatureHeader(value);
    const problems = formProblems(value);
    if (problems.length || !parsed) return problems.join('; ') || 'unreadable';
    // A later attempt's t is judged here (the first deliveries' window is webhooks.timestamp's): unix seconds,
    // not a day away from its arrival (milliseconds, a sequence number, a stored time of the first attempt).
    if (!mustSign && Math.abs(parsed.t - d.receivedAt / 1000) > UNIX_SECONDS_SLACK_S)
      return `t=${parsed.t} is not the unix seconds of its sending (${Math.round(parsed.t - d.receivedAt / 1000)} s from its arrival)`;
    // The scenario's receiver, or another the run knows the key of (the replayed registration's).
    const own = labelOfPath(d.path, [s.label]) ? secret : known.get(labelOfPath(d.path, known.keys()) ?? '');
    if (!mustSign && own === undefined) return undefined;
    // The time window is webhooks.timestamp's rule: verify the signature at its own time.
    const result = verifyWebhook(d.rawBody, value, own ?? secret, { now: parsed.t });
    return result.ok
      ? undefined
      : `not the HMAC-SHA256 of "<t>.<raw body>" keyed with the signing key (${result.reason})`;
  };
  const expected = (which: string) =>
    ctx.deployment.webhookSignatureHeader
      ? `${which} carries ${ctx.deployment.webhookSignatureHeader} (deployment profile webhookSignatureHeader); ${FORM_EXPECTED}; signed with the signing key`
      : `a header of ${which} carries the signature (its name is not shown by the interface); ${FORM_EXPECTED}; signed with the signing key`;
  for (const d of s.deliveries) {
    const header = signatureHeaderOf(ctx, d);
    const problem = problemOf(d, header, true);
    ctx.expect.that(problem === undefined, {
      expected: expected('the delivery'),
      observed: `${problem}: ${describe(d, header)}`,
    });
  }
  // Later requests (retries, redeliveries, the kit's other receivers): judged when signed, one failure for all.
  const first = new Set<ReceivedDelivery>(s.deliveries);
  const later = s.receiver.received
    .filter((d) => !first.has(d))
    .map((d) => ({ d, header: signatureHeaderOf(ctx, d) }))
    .filter(({ d, header }) => header !== undefined && d.headers[header] !== undefined);
  const broken = later.flatMap(({ d, header }) => {
    const problem = problemOf(d, header, false);
    return problem === undefined ? [] : [{ d, header, problem }];
  });
  const one = broken[0];
  if (one)
    ctx.fail({
      expected: expected('every later delivery (retry, redelivery, another receiver of the kit)'),
      observed: `${broken.length} of ${later.length} later signed request(s) break it; the first: ${one.problem}: ${describe(one.d, one.header)}`,
    });
  ctx.note(
    `judged ${s.deliveries.length} first deliver${s.deliveries.length === 1 ? 'y' : 'ies'} and ${later.length} later signed request(s)`,
  );
}

export const signature = defineCheck({
  name: 'webhooks.signature',
  title:
    'every delivery (first attempts, retries, redeliveries) carries exactly t=<unix-seconds>,v1=<lowercase hex HMAC-SHA256 over "<t>.<raw body>"> keyed with the signing key',
  severity: 'MUST',
  section: 'Webhooks',
  tags: ['webhooks', 'security'],
  mutating: true,
  requires: ['token'],
  // Last, with the response rules: by then the receiver holds every delivery of the run.
  judgesRun: true,
  run: judgeDeliveries,
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
