import { ERROR_TABLE } from '../../simulator/contract/errors.ts';
import { LIMITS } from '../../simulator/contract/limits.ts';
import { type CheckContext, defineCheck } from '../runner/check.ts';
import { CONNECTIONS_PATH, postConnection, requireCreationBase } from './support/connections.ts';
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

/** The statuses an authenticated endpoint answers ("may answer with the statuses 400, 401, … 500"), and 200. */
const ANSWERED = new Set([200, ...Object.values(ERROR_TABLE).map((row) => row.status)]);

export const largestBody = defineCheck({
  name: 'requests.largest-body',
  title:
    'POST /connections with every field at its largest allowed size at once (a label of 120, 24 capabilities of 120) gets an answer the interface lists (200 or an Errors status), never 413 or another',
  severity: 'MUST',
  section: 'Limits',
  tags: ['limits', 'validation'],
  mutating: true,
  requires: ['token'],
  async run(ctx: CheckContext) {
    const base = await requireCreationBase(ctx);
    const label = (kind: string, n: number) => `${ctx.label(kind)}-${'x'.repeat(n)}`.slice(0, n);
    // Within every limit at once (about 3 KB): the capabilities are the kit's own names, so a deployment may
    // refuse them as unknown (capability_denied, invalid_request, not_found); its size alone is no reason.
    const body = {
      connectorId: base.connectorId,
      environment: base.environment,
      scopeLabel: label('largest', LIMITS.scopeLabel.max),
      capabilities: Array.from({ length: LIMITS.connectionCapabilities.maxItems }, (_, i) =>
        label(`capability-${i}`, LIMITS.capability.max),
      ),
    };
    const ex = await postConnection(ctx, body);
    ctx.expect.that(ANSWERED.has(ex.status), {
      expected: `POST ${CONNECTIONS_PATH()} with a body at every limit (${JSON.stringify(body).length} bytes) answers 200 or a status of the Errors table (${[...ANSWERED].sort().join(', ')})`,
      exchange: ex,
    });
  },
});

export const requestFormChecks = [jsonWithCharset, largestBody];
