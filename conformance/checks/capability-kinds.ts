import type { Exchange } from '../client/http-client.ts';
import { type CheckContext, defineCheck } from '../runner/check.ts';
import { dataIdOf, freshKey, postConnection, renewedBetween, requireCreationBase } from './support/connections.ts';
import { capabilityCheckRoute } from './support/error-probes.ts';
import { replayUnjudged } from './support/key-validity.ts';
import { successSamples } from './support/samples.ts';

type Record_ = Record<string, unknown>;
/** Capability checks asked at most, to find an allowed capability of each kind. */
const MAX_ASKED = 8;

const listed = (ex: Exchange | undefined, field: string) => {
  const list = (ex?.json as { data?: Record_ } | undefined)?.data?.[field];
  return (Array.isArray(list) ? list : []) as Record_[];
};
const kindOf = (cap: Record_) =>
  `${cap.critical === true ? 'critical' : 'not critical'}, ${cap.idempotencyRequired === true ? 'idempotencyRequired' : 'no idempotencyRequired'}`;

/**
 * One capability of each kind the catalog offers (its critical and idempotencyRequired flags) other than
 * the kind of the creation base's, with a connector offering it, that the capability check allows.
 */
async function allowedOfOtherKinds(ctx: CheckContext, baseCapability: string | undefined, environment: string) {
  const samples = await successSamples(ctx);
  const capabilities = listed(samples.find((s) => s.route.id === 'listCapabilities')?.ex, 'capabilities');
  const connectors = listed(samples.find((s) => s.route.id === 'listConnectors')?.ex, 'connectors');
  const baseKind = capabilities.find((c) => c.id === baseCapability);
  const kinds = new Set(baseKind ? [kindOf(baseKind)] : []);
  const found: { kind: string; connectorId: string; capability: string }[] = [];
  let asked = 0;
  for (const cap of capabilities) {
    const kind = kindOf(cap);
    if (kinds.has(kind) || typeof cap.id !== 'string') continue;
    const offering = connectors.find((c) => Array.isArray(c.capabilities) && c.capabilities.includes(cap.id));
    if (typeof offering?.id !== 'string' || ++asked > MAX_ASKED) continue;
    const pair = { connectorId: offering.id, capability: cap.id };
    const ex = await ctx.call('POST', capabilityCheckRoute().path, { json: { ...pair, environment } });
    const allowed = (ex.json as { data?: { decision?: { allowed?: unknown } } } | undefined)?.data?.decision?.allowed;
    if (ex.status !== 200 || allowed !== true) continue;
    kinds.add(kind);
    found.push({ kind, ...pair });
  }
  return found;
}

/**
 * MUST (POST /connections: the field list is the schema; "Sending the same key with the same content
 * returns the same response again"): a creation is valid whatever kind of capability it books. A
 * capability marked idempotencyRequired needs a key, which the creation carries: a key the client made
 * (the interface lets clients make their own within the pattern) is as good as an issued one, and its
 * replay returns the connection again. Only capabilities the capability check allows are booked; a refusal
 * other than 400 (the deployment's own rules for critical capabilities) is not judged.
 */
export const capabilityKinds = defineCheck({
  name: 'connections.capability-kinds',
  title:
    "a creation booking a capability of each kind the catalog offers (critical, idempotencyRequired) is accepted with a key the client made, and its replay returns it again; booked together (each entry's flags then judged with the run's other answers), the replay returns the same entries",
  severity: 'MUST',
  section: 'POST /api/public/v1/connections',
  tags: ['connections', 'idempotency'],
  mutating: true,
  requires: ['token'],
  async run(ctx: CheckContext) {
    const base = await requireCreationBase(ctx);
    const others = await allowedOfOtherKinds(ctx, base.capabilities[0], base.environment);
    if (!others.length)
      ctx.skip(
        "the catalog offers no capability of another kind than the creation base's (critical, idempotencyRequired) that the capability check allows",
      );
    for (const o of others) {
      const body = { ...base, connectorId: o.connectorId, capabilities: [o.capability], scopeLabel: ctx.label('kind') };
      const key = freshKey(ctx);
      const made = await postConnection(ctx, body, { key });
      ctx.expect.that(made.status !== 400, {
        expected: `a valid creation booking ${o.capability} (${o.kind}) with a key the client made is not refused as invalid`,
        exchange: made,
      });
      if (made.status !== 200) {
        if (made.status !== 400) ctx.note(`booking ${o.capability} was refused ${made.status}: not judged`);
        continue;
      }
      const firstSentAt = Date.now() - made.durationMs;
      const again = await postConnection(ctx, body, { key });
      if (renewedBetween(made, again) && dataIdOf(again) !== dataIdOf(made)) {
        ctx.note(`booking ${o.capability} was sent again with a renewed token: its replay not judged`);
        continue;
      }
      // Made's own time and the repeat's count, waits for a 429 included (key-validity.ts).
      const unjudged = replayUnjudged({ firstSentAt });
      if (unjudged && dataIdOf(again) !== dataIdOf(made)) {
        ctx.note(`booking ${o.capability}: ${unjudged}: its replay not judged`);
        continue;
      }
      ctx.expect.that(again.status === 200 && dataIdOf(again) === dataIdOf(made), {
        expected: `the same key and content booking ${o.capability} (${o.kind}) returns the same connection again`,
        observed: `${again.status}, data.id ${String(dataIdOf(again))} (first ${String(dataIdOf(made))})`,
        exchange: again,
      });
    }
    await kindsTogether(ctx, base);
  },
});

/**
 * Capabilities of different kinds booked in one creation (their entries' flags then judged against the catalog's
 * by the run-wide consistency rule), and the replay returns the same entries. On the connector offering most kinds,
 * one capability of each; a refusal (the deployment's rules for booking) is noted.
 */
async function kindsTogether(ctx: CheckContext, base: { environment: string }) {
  const samples = await successSamples(ctx);
  const catalog = listed(samples.find((s) => s.route.id === 'listCapabilities')?.ex, 'capabilities');
  const connectors = listed(samples.find((s) => s.route.id === 'listConnectors')?.ex, 'connectors');
  const capOf = (id: unknown) => catalog.find((c) => c.id === id);
  const kindsOf = (c: Record_) =>
    new Set(
      (Array.isArray(c.capabilities) ? c.capabilities : [])
        .map(capOf)
        .filter(Boolean)
        .map((x) => kindOf(x as Record_)),
    );
  const connector = [...connectors].sort((a, b) => kindsOf(b).size - kindsOf(a).size)[0];
  if (!connector || typeof connector.id !== 'string' || kindsOf(connector).size < 2)
    return ctx.note('no connector offers capabilities of two kinds: none booked together');
  // One capability of each kind it offers, booked together (a refusal is the deployment's rule: noted below).
  const chosen = new Map<string, string>();
  for (const id of connector.capabilities as unknown[]) {
    const cap = capOf(id);
    if (cap && typeof id === 'string' && !chosen.has(kindOf(cap))) chosen.set(kindOf(cap), id);
  }
  const body = {
    ...base,
    connectorId: connector.id,
    capabilities: [...chosen.values()],
    scopeLabel: ctx.label('kinds'),
  };
  const key = freshKey(ctx);
  const made = await postConnection(ctx, body, { key });
  if (made.status !== 200) return ctx.note(`booking ${body.capabilities.join(', ')} together answered ${made.status}`);
  // Each entry's flags against the catalog's are the run-wide consistency rule's (SHOULD: the interface repeats the
  // fields, it does not say they must agree); the replay returning the same entries is this check's (MUST).
  const entries = listed(made, 'capabilities');
  const again = await postConnection(ctx, body, { key });
  if (again.status !== 200 || dataIdOf(again) !== dataIdOf(made)) return;
  ctx.expect.that(JSON.stringify(listed(again, 'capabilities')) === JSON.stringify(entries), {
    expected: `the replay of the creation booking ${body.capabilities.join(', ')} together returns the same capability entries`,
    observed: `${JSON.stringify(listed(again, 'capabilities')).slice(0, 300)} (first ${JSON.stringify(entries).slice(0, 300)})`,
    exchange: again,
  });
}
