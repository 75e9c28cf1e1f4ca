import { ERROR_TABLE } from '../../simulator/contract/errors.ts';
import { LIMITS } from '../../simulator/contract/limits.ts';
import { routePath } from '../rules/interface-routes.ts';
import { type CheckContext, defineCheck } from '../runner/check.ts';
import { CONNECTIONS_PATH, postConnection, requireCreationBase } from './support/connections.ts';
import { capabilityCheckRoute } from './support/error-probes.ts';
import { type Place, placesWithVersion } from './support/places.ts';

// The interface takes "Body (JSON)". JSON's media type defines no charset parameter, and "adding one really has
// no effect on compliant recipients" (RFC 8259 §11): clients that label their bodies application/json;
// charset=utf-8 (many HTTP libraries do) send JSON all the same.

export const jsonWithCharset = defineCheck({
  name: 'requests.json-with-charset',
  title:
    'a JSON body labelled application/json; charset=utf-8 is taken as JSON (POST /capabilities, POST /idempotency-keys), in every place the interface is offered',
  severity: 'SHOULD',
  section: 'POST /api/public/v1/capabilities',
  tags: ['validation'],
  mutating: false,
  requires: ['token'],
  async run(ctx: CheckContext) {
    const base = await requireCreationBase(ctx);
    const bodies = [
      {
        path: capabilityCheckRoute().path,
        body: JSON.stringify({
          connectorId: base.connectorId,
          capability: base.capabilities[0],
          environment: base.environment,
        }),
        key: false,
      },
      // A harmless write (a key issued): a gateway's body parser sits in front of modifying calls too.
      { path: routePath('createIdempotencyKey'), body: JSON.stringify({ operation: 'connection.create' }), key: true },
    ];
    const send = (b: (typeof bodies)[number], contentType: string, call: Place['call'] = {}) =>
      ctx.call('POST', b.path, {
        ...call,
        body: b.body,
        headers: {
          ...call.headers,
          'content-type': contentType,
          ...(b.key ? { 'Idempotency-Key': ctx.label('charset') } : {}),
        },
      });
    const taken = [];
    for (const b of bodies) {
      const plain = await send(b, 'application/json');
      if (plain.status !== 200) {
        ctx.note(`POST ${b.path} labelled application/json answered ${plain.status}: not compared`);
        continue;
      }
      taken.push(b);
      const labelled = await send(b, 'application/json; charset=utf-8');
      ctx.expect.status(
        labelled,
        200,
        `POST ${b.path} with Content-Type: application/json; charset=utf-8 answers as it does without the charset (200)`,
      );
    }
    if (!taken.length) ctx.skip('no call labelled application/json answered 200: nothing to compare');
    // The other places: a gateway at the alternate address, a tenant's or an earlier version's own body parser.
    for (const place of await placesWithVersion(ctx))
      for (const b of taken) {
        const there = await send(b, 'application/json; charset=utf-8', place.call);
        if (place.accessMayDiffer && [401, 403, 404].includes(there.status)) continue;
        ctx.expect.status(
          there,
          200,
          `POST ${b.path} ${place.what} with Content-Type: application/json; charset=utf-8 answers 200, as without the charset at the main address`,
        );
      }
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
