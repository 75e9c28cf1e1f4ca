import { defineCheck } from '../runner/check.ts';
import { requireCreationBase } from './support/connections.ts';
import { capabilityCheckRoute } from './support/error-probes.ts';
import { knownPair } from './support/samples.ts';

type Decision = { data?: { environment?: unknown; decision?: { allowed?: unknown } } } | undefined;

/** MUST (POST /capabilities: "environment … default sandbox"): a check without environment is judged for sandbox. */
export const defaultEnvironment = defineCheck({
  name: 'capabilities.default-environment',
  title: 'POST /capabilities without environment answers data.environment sandbox (the default)',
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

export const capabilityChecks = [defaultEnvironment, unknownConnector];
