import { type CheckContext, defineCheck } from '../runner/check.ts';
import { requireCreationBase } from './support/connections.ts';
import { capabilityCheckRoute } from './support/error-probes.ts';

// The interface takes "Body (JSON)". JSON's media type defines no charset parameter, and "adding one really has
// no effect on compliant recipients" (RFC 8259 §11): clients that label their bodies application/json;
// charset=utf-8 (many HTTP libraries do) send JSON all the same.

export const jsonWithCharset = defineCheck({
  name: 'requests.json-with-charset',
  title: 'a JSON body labelled application/json; charset=utf-8 is taken as JSON (POST /capabilities)',
  severity: 'SHOULD',
  section: 'POST /api/public/v1/capabilities',
  tags: ['validation'],
  mutating: false,
  requires: ['token'],
  async run(ctx: CheckContext) {
    const base = await requireCreationBase(ctx);
    const body = JSON.stringify({
      connectorId: base.connectorId,
      capability: base.capabilities[0],
      environment: base.environment,
    });
    const plain = await ctx.call('POST', capabilityCheckRoute().path, {
      body,
      headers: { 'content-type': 'application/json' },
    });
    if (plain.status !== 200)
      ctx.skip(`the same check labelled application/json answered ${plain.status}: nothing to compare`);
    const labelled = await ctx.call('POST', capabilityCheckRoute().path, {
      body,
      headers: { 'content-type': 'application/json; charset=utf-8' },
    });
    ctx.expect.status(
      labelled,
      200,
      'POST /capabilities with Content-Type: application/json; charset=utf-8 answers as it does without the charset (200)',
    );
  },
});

export const requestFormChecks = [jsonWithCharset];
