import { ENVIRONMENTS } from '../../simulator/contract/environment.ts';
import { defineCheck } from '../runner/check.ts';
import { requireCreationBase } from './support/connections.ts';
import { capabilityCheckRoute } from './support/error-probes.ts';
import { placesWithVersion } from './support/places.ts';
import { knownPair, successSamples } from './support/samples.ts';

type Decision =
  | { data?: { environment?: unknown; decision?: { allowed?: unknown; connectorId?: unknown; capability?: unknown } } }
  | undefined;

/** MUST (POST /capabilities: "environment … default sandbox"): a check without environment is judged for sandbox. */
export const defaultEnvironment = defineCheck({
  name: 'capabilities.default-environment',
  title:
    'POST /capabilities without environment answers data.environment sandbox (the default), for the second tenant too, where (and at the alternate base URL) a named environment is answered as named',
  severity: 'MUST',
  section: 'POST /api/public/v1/capabilities',
  tags: ['capabilities'],
  mutating: false,
  requires: ['token'],
  async run(ctx) {
    const pair = await knownPair(ctx);
    if (!pair) ctx.skip('GET /connectors lists no connector with a capability to ask about');
    const path = capabilityCheckRoute().path;
    const ex = await ctx.call('POST', path, { json: pair });
    const environment = (ex.json as Decision)?.data?.environment;
    ctx.expect.that(ex.status === 200 && environment === 'sandbox', {
      expected: `POST ${path} without environment answers 200 with data.environment "sandbox"`,
      observed: `status ${ex.status}, data.environment ${JSON.stringify(environment)}`,
      exchange: ex,
    });
    // At the alternate address, each environment value is answered as at the main one (a gateway there with an
    // enumeration of its own refuses one of them).
    if (ctx.target.altBaseUrl)
      for (const environment of ENVIRONMENTS) {
        const json = { ...pair, environment };
        const [main, alt] = await Promise.all([
          ctx.call('POST', path, { json }),
          ctx.call('POST', path, { json, base: 'alt' }),
        ]);
        if (main.status !== 200) continue;
        const echoed = (alt.json as Decision)?.data?.environment;
        ctx.expect.that(alt.status === 200 && echoed === environment, {
          expected: `POST ${path} with environment ${environment} at the alternate base URL answers 200 for ${environment}, as at the main one`,
          observed: `status ${alt.status}, data.environment ${JSON.stringify(echoed)}`,
          exchange: alt,
        });
      }
    // The default is the interface's, not a tenant's: the second tenant's check without environment is
    // judged for sandbox too (a refusal other than 400 is that tenant's access or catalog: noted, not judged).
    const other = ctx.target.otherTenant;
    if (!other) return;
    const theirs = await ctx.call('POST', path, { json: pair, tenant: other });
    // 401/403: the access's role there; 404: a connector that tenant is not offered. Not judged.
    if (theirs.status !== 200 && theirs.status !== 400) {
      ctx.note(`tenant ${other}'s check answered ${theirs.status}: not judged (its access or its catalog)`);
      return;
    }
    const their = (theirs.json as Decision)?.data?.environment;
    ctx.expect.that(theirs.status === 200 && their === 'sandbox', {
      expected: `POST ${path} without environment for tenant ${other} answers 200 with data.environment "sandbox", as for the first tenant`,
      observed: `status ${theirs.status}, data.environment ${JSON.stringify(their)}`,
      exchange: theirs,
    });
    // And a check naming its environment is judged for that one there too (the answer's environment is the
    // one asked: a tenant's checks reported for its default would hide a production refusal).
    for (const environment of ENVIRONMENTS.filter((e) => e !== 'sandbox')) {
      const named = await ctx.call('POST', path, { json: { ...pair, environment }, tenant: other });
      if (named.status !== 200) continue;
      const echoed = (named.json as Decision)?.data?.environment;
      ctx.expect.that(echoed === environment, {
        expected: `POST ${path} with environment ${environment} for tenant ${other} answers data.environment "${environment}" (the environment the check was asked for)`,
        observed: `data.environment ${JSON.stringify(echoed)}`,
        exchange: named,
      });
    }
  },
});

/** MUST (What the service does: "a capability check returns a decision"): nothing unknown is allowed. */
export const unknownConnector = defineCheck({
  name: 'capabilities.unknown-connector',
  title: 'a capability check for an unknown connector is never allowed (404 not_found or allowed: false)',
  severity: 'MUST',
  section: 'POST /api/public/v1/capabilities',
  tags: ['capabilities'],
  mutating: false,
  requires: ['token'],
  async run(ctx) {
    const base = await requireCreationBase(ctx);
    const path = capabilityCheckRoute().path;
    const ex = await ctx.call('POST', path, {
      json: { connectorId: ctx.label('connector'), capability: base.capabilities[0], environment: base.environment },
    });
    const allowed = (ex.json as Decision)?.data?.decision?.allowed;
    ctx.expect.that(!(ex.status >= 200 && ex.status < 300 && allowed !== false), {
      expected: `POST ${path} for an unknown connector is refused or decided "not allowed"`,
      observed: `status ${ex.status}, decision.allowed ${JSON.stringify(allowed)}`,
      exchange: ex,
    });
  },
});

/** A capability of the catalog the connector does not list (its id), after a check of one it offers. */
async function offeredAndUnoffered(ctx: Parameters<typeof defaultEnvironment.run>[0]) {
  const pair = await knownPair(ctx);
  if (!pair) ctx.skip('GET /connectors lists no connector with a capability to ask about');
  const samples = await successSamples(ctx);
  const data = (id: string) =>
    (samples.find((s) => s.route.id === id)?.ex.json as { data?: Record<string, unknown> } | undefined)?.data;
  const connectors = (data('listConnectors')?.connectors ?? []) as { id?: unknown; capabilities?: unknown }[];
  const offered = connectors.find((c) => c.id === pair.connectorId)?.capabilities;
  const catalog = (data('listCapabilities')?.capabilities ?? []) as { id?: unknown }[];
  const unoffered = catalog
    .map((c) => c.id)
    .find((id): id is string => typeof id === 'string' && Array.isArray(offered) && !offered.includes(id));
  // The last connector listed, with its first capability: an index off by one at the end of the list misses it.
  const tail = [...connectors]
    .reverse()
    .find((c) => typeof c.id === 'string' && Array.isArray(c.capabilities) && typeof c.capabilities[0] === 'string');
  const last =
    tail && tail.id !== pair.connectorId
      ? { connectorId: tail.id as string, capability: (tail.capabilities as string[])[0] as string }
      : undefined;
  return { pair, unoffered, last };
}

/**
 * MUST (What the service does: "A capability check returns a decision"; CapabilityDecision): the
 * decision is about what was asked: its connectorId and capability are the ones the check sent, for
 * two capabilities of one connector in turn (a decision kept per connector answers the second with the first).
 */
export const decisionForAsked = defineCheck({
  name: 'capabilities.decision-for-asked',
  title:
    'a capability decision names the connector and capability asked, for each capability of one connector (and under the second tenant), and the last connector listed is decided about, never 404',
  severity: 'MUST',
  section: 'POST /api/public/v1/capabilities',
  tags: ['capabilities'],
  mutating: false,
  requires: ['token'],
  async run(ctx) {
    const { pair, unoffered, last } = await offeredAndUnoffered(ctx);
    const path = capabilityCheckRoute().path;
    // The second tenant's check too: its decision's flags are then held to the catalog's with every other
    // answer of the run (consistency rules), as a decision wired to one tenant's settings would not be.
    const asked = [
      ...[pair.capability, ...(unoffered ? [unoffered] : [])].map((capability) => ({ capability, tenant: undefined })),
      ...(ctx.target.otherTenant ? [{ capability: pair.capability, tenant: ctx.target.otherTenant }] : []),
    ];
    let firstDecided = false;
    for (const { capability, tenant } of asked) {
      const ex = await ctx.call('POST', path, {
        json: { connectorId: pair.connectorId, capability },
        ...(tenant ? { tenant } : {}),
      });
      if (ex.status !== 200) continue;
      if (!tenant && capability === pair.capability) firstDecided = true;
      const d = (ex.json as Decision)?.data?.decision;
      ctx.expect.that(d?.connectorId === pair.connectorId && d?.capability === capability, {
        expected: `POST ${path} for ${pair.connectorId} / ${capability}: data.decision names them`,
        observed: `decision.connectorId ${JSON.stringify(d?.connectorId)}, decision.capability ${JSON.stringify(d?.capability)}`,
        exchange: ex,
      });
    }
    // The last connector GET /connectors lists exists ("not_found: the entry does not exist" is wrong for it),
    // judged where the first connector's check was decided (a deployment deciding about listed connectors).
    if (last && firstDecided) {
      const ex = await ctx.call('POST', path, { json: last });
      const d = (ex.json as Decision)?.data?.decision;
      ctx.expect.that(ex.status !== 404 && (ex.status !== 200 || d?.connectorId === last.connectorId), {
        expected: `POST ${path} for ${last.connectorId} (the last connector GET /connectors lists) / ${last.capability} is decided about it, not answered 404 not_found (the entry exists)`,
        observed: `status ${ex.status}, decision.connectorId ${JSON.stringify(d?.connectorId)}`,
        exchange: ex,
      });
    }
  },
});

/**
 * SHOULD (Connector: capabilities; Errors: capability_denied "capability not booked"): a connector's
 * capabilities are what it offers, so a check of a capability of the catalog it does not list is not
 * allowed, also right after a check of one it offers (a decision kept per connector would allow it).
 * SHOULD: the interface does not spell the rule out.
 */
export const unofferedNotAllowed = defineCheck({
  name: 'capabilities.unoffered-not-allowed',
  title: 'a check of a capability the connector does not offer is refused or decided "not allowed"',
  severity: 'SHOULD',
  section: 'POST /api/public/v1/capabilities',
  tags: ['capabilities'],
  mutating: false,
  requires: ['token'],
  async run(ctx) {
    const { pair, unoffered } = await offeredAndUnoffered(ctx);
    if (!unoffered) ctx.skip(`the catalog has no capability ${pair.connectorId} does not offer`);
    const path = capabilityCheckRoute().path;
    await ctx.call('POST', path, { json: pair });
    // In the default environment and in each value of the enumeration: a rule coded per environment may
    // differ in one of them.
    for (const environment of [undefined, ...ENVIRONMENTS]) {
      const json = { connectorId: pair.connectorId, capability: unoffered, ...(environment ? { environment } : {}) };
      const ex = await ctx.call('POST', path, { json });
      const allowed = (ex.json as Decision)?.data?.decision?.allowed;
      ctx.expect.that(!(ex.status >= 200 && ex.status < 300 && allowed !== false), {
        expected: `POST ${path} for ${pair.connectorId} / ${unoffered} (not among its capabilities)${environment ? ` in ${environment}` : ''} is refused or decided "not allowed"`,
        observed: `status ${ex.status}, decision.allowed ${JSON.stringify(allowed)}`,
        exchange: ex,
      });
    }
    // And in every other place (the alternate address, the second tenant, the earlier version): the connector's
    // capabilities are the catalog's, wherever it is asked (a refusal of the access there is that place's).
    const json = { connectorId: pair.connectorId, capability: unoffered };
    for (const p of await placesWithVersion(ctx)) {
      const ex = await ctx.call('POST', path, { ...p.call, json });
      const allowed = (ex.json as Decision)?.data?.decision?.allowed;
      ctx.expect.that(!(ex.status >= 200 && ex.status < 300 && allowed !== false), {
        expected: `POST ${path} ${p.what} for ${pair.connectorId} / ${unoffered} (not among its capabilities) is refused or decided "not allowed", as at home`,
        observed: `status ${ex.status}, decision.allowed ${JSON.stringify(allowed)}`,
        exchange: ex,
      });
    }
  },
});

export const capabilityChecks = [defaultEnvironment, unknownConnector, decisionForAsked, unofferedNotAllowed];
