// A capability check is a question about the catalog ("a capability check returns a decision (allowed or not)
// with a reason"): its body names a connector, a capability and an environment. The Idempotency-Key is asked of
// modifying calls only, and the decision's own idempotencyRequired field tells the caller that *calls using* the
// capability need one. A checker that reuses the call guard decides "not allowed" where the check itself carries
// no key: the same question then gets two answers. Held here: the same check with and without a key decides alike.
import { type CheckContext, defineCheck } from '../runner/check.ts';
import { freshKey } from './support/connections.ts';
import { capabilityCheckRoute } from './support/error-probes.ts';
import { knownPair, successSamples } from './support/samples.ts';

type Entry = { id?: unknown; capabilities?: unknown; idempotencyRequired?: unknown; critical?: unknown };
const allowedOf = (ex: { json?: unknown }) =>
  (ex.json as { data?: { decision?: { allowed?: unknown } } } | undefined)?.data?.decision?.allowed;

/**
 * Pairs to ask about: a connector's capability the catalog marks idempotencyRequired (where the two answers
 * part), and the first known pair. Read from the run's catalog samples.
 * @example await pairsToAsk(ctx) // [{ connectorId: 'c-1', capability: 'payments.capture' }, ...]
 */
async function pairsToAsk(ctx: CheckContext): Promise<{ connectorId: string; capability: string }[]> {
  const pair = await knownPair(ctx);
  const samples = await successSamples(ctx);
  const list = (id: string, field: string) =>
    ((samples.find((s) => s.route.id === id)?.ex.json as { data?: Record<string, unknown> } | undefined)?.data?.[
      field
    ] ?? []) as Entry[];
  // A capability whose calls need a key, not critical first (a critical one may be "not booked" either way).
  const keyed = list('listCapabilities', 'capabilities')
    .filter((c) => c?.idempotencyRequired === true && typeof c.id === 'string')
    .sort((x, y) => Number(x.critical === true) - Number(y.critical === true))
    .map((c) => c.id as string);
  const connectors = list('listConnectors', 'connectors');
  const out: { connectorId: string; capability: string }[] = [];
  for (const capability of keyed) {
    const connector = connectors.find(
      (c) => typeof c?.id === 'string' && Array.isArray(c.capabilities) && c.capabilities.includes(capability),
    );
    if (!connector) continue;
    out.push({ connectorId: connector.id as string, capability });
    break;
  }
  if (pair && !out.some((p) => p.connectorId === pair.connectorId && p.capability === pair.capability))
    out.push({ connectorId: pair.connectorId, capability: pair.capability });
  return out;
}

export const checkKeyNeutral = defineCheck({
  name: 'capabilities.key-neutral',
  title:
    'a capability check decides alike with and without an Idempotency-Key (the key is asked of modifying calls; a capability whose calls need one is still decided about when the check carries none)',
  severity: 'MUST',
  section: 'POST /api/public/v1/capabilities',
  tags: ['capabilities', 'idempotency'],
  mutating: false,
  requires: ['token'],
  async run(ctx) {
    const pairs = await pairsToAsk(ctx);
    if (!pairs.length) ctx.skip('GET /connectors lists no connector with a capability to ask about');
    const path = capabilityCheckRoute().path;
    let compared = 0;
    for (const json of pairs) {
      const plain = await ctx.call('POST', path, { json });
      const key = freshKey(ctx);
      const keyed = await ctx.call('POST', path, { json, headers: { 'Idempotency-Key': key } });
      // A deployment may take the check as modifying (428 without a key) or refuse a key there (400): only two
      // decisions are compared.
      if (plain.status !== 200 || keyed.status !== 200) {
        ctx.note(
          `${json.connectorId} / ${json.capability}: ${plain.status} without a key, ${keyed.status} with one: not compared`,
        );
        continue;
      }
      compared++;
      ctx.expect.that(allowedOf(plain) === allowedOf(keyed), {
        expected: `POST ${path} for ${json.connectorId} / ${json.capability} decides alike with and without an Idempotency-Key`,
        observed: `decision.allowed ${JSON.stringify(allowedOf(plain))} without a key, ${JSON.stringify(allowedOf(keyed))} with one`,
        exchange: plain,
      });
    }
    // A key already used, sent again with an unknown token: the call is not signed in, whatever the key did before
    // (a replay lookup before the token's answers it as a replay; generated.replay-after-a-first-call judges the mark).
    const [first] = pairs;
    if (first) {
      const key = freshKey(ctx);
      const used = await ctx.call('POST', path, { json: first, headers: { 'Idempotency-Key': key } });
      if (used.status === 200) {
        const ex = await ctx.call('POST', path, {
          json: first,
          credentials: 'none',
          headers: { 'Idempotency-Key': key, authorization: `Bearer ${ctx.label('invalid-token')}` },
          ...(ctx.target.tenant ? { tenant: ctx.target.tenant } : {}),
        });
        ctx.expect.errorCode(
          ex,
          'unauthorized',
          `POST ${path} under a key used before, with an unknown token, answers 401 unauthorized`,
        );
      }
    }
    if (!compared) ctx.skip('no check was decided both with and without a key');
  },
});
