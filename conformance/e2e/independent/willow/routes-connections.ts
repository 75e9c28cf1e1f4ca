// Connections of the tenant (its Durable Object) and the tenant's audit log (R2 objects, hash chained).
import { catalogKv } from './catalog-kv.ts';
import type { Body, Route } from './http-kit.ts';
import { ApiError, invalid, notFound } from './http-kit.ts';
import { environment, nonNegativeInt, onlyFields, text, textList } from './validate.ts';

const CONNECTION_FIELDS = ['connectorId', 'environment', 'scopeLabel', 'capabilities'];

interface CreateInput {
  connectorId: string;
  environment: string;
  scopeLabel: string;
  capabilities: string[];
}

export const connectionRoutes: Route[] = [
  {
    method: 'GET',
    path: '/connections',
    purpose: 'connections of the tenant',
    auth: true,
    key: 'none',
    contract: true,
    run: (ctx, w) => {
      // The list is a KV index: with listLagMs a creation shows there a little later (read-after-write not promised).
      const visibleBefore = Date.now() - w.opts.listLagMs;
      const list = w.tenant(ctx.tenant).connections.filter((c) => Date.parse(c.createdAt) <= visibleBefore);
      return { tenant: ctx.tenant, count: list.length, connections: list };
    },
  },
  {
    method: 'POST',
    path: '/connections',
    purpose: 'create a connection',
    auth: true,
    key: 'required',
    contract: true,
    check: (_ctx, _w, body: Body): CreateInput => {
      // "The field list above is the schema": anything else (the sample's restaurantId) is refused.
      onlyFields(body, CONNECTION_FIELDS);
      return {
        connectorId: text(body, 'connectorId', 2, 120),
        environment:
          body.environment === undefined || body.environment === null
            ? missing('environment')
            : environment(body.environment),
        scopeLabel: text(body, 'scopeLabel', 2, 120),
        capabilities: textList(body, 'capabilities', 1, 24, 2, 120),
      };
    },
    run: (ctx, w, input) => {
      const i = input as CreateInput;
      if (w.opts.sandboxOnly && i.environment === 'production') {
        // A sandbox access may not create production connections ("production data must never be copied into the sandbox").
        throw new ApiError(
          403,
          'forbidden',
          'This sandbox access may not create production connections.',
          'Use a production access for production.',
        );
      }
      const connector = catalogKv.connector(i.connectorId);
      if (connector === undefined) throw notFound('No connector has this connectorId.');
      const refused = i.capabilities.filter(
        (c) => !connector.capabilities.includes(c) || catalogKv.capability(c) === undefined,
      );
      if (refused.length > 0) {
        throw new ApiError(
          409,
          'capability_denied',
          'A requested capability is not released for this connector.',
          'Have the capability released, or book only the capabilities the connector lists.',
          `not released: ${refused.length} of ${i.capabilities.length}`,
        );
      }
      const capabilities = i.capabilities.map((id) => {
        const cap = catalogKv.capability(id);
        return {
          capability: id,
          critical: cap?.critical ?? false,
          idempotencyRequired: cap?.idempotencyRequired ?? false,
        };
      });
      return w
        .tenant(ctx.tenant)
        .createConnection(
          { connectorId: i.connectorId, environment: i.environment, scopeLabel: i.scopeLabel, capabilities },
          { clientId: ctx.clientId, requestId: ctx.requestId, idempotencyKey: ctx.idempotencyKey ?? null },
        );
    },
  },
  {
    method: 'GET',
    path: '/audit-log',
    purpose: 'audit log of the tenant with a proof of integrity',
    auth: true,
    key: 'none',
    contract: true,
    run: (ctx, w) => {
      const q = ctx.query;
      const limitText = q.get('limit');
      let limit = limitText === null ? 50 : nonNegativeInt(limitText, 'limit');
      if (limit < 1 || limit > 500) throw invalid('limit must be 1 to 500.');
      limit = Math.min(limit, w.opts.auditMaxPage);
      const audit = w.tenant(ctx.tenant).audit;
      const cursor = q.get('cursor');
      const newest = w.opts.auditNewestFirst;
      let entries: ReturnType<typeof audit.list>;
      if (newest) {
        // Newest first: the cursor is the seq below which to continue.
        const before = cursor === null ? audit.seq + 1 : nonNegativeInt(cursor, 'cursor');
        const from = Math.max(0, before - 1 - limit);
        entries = audit.list(from, before - 1 - from).reverse();
      } else {
        const after = cursor === null ? 0 : nonNegativeInt(cursor, 'cursor');
        entries = audit.list(after, limit);
      }
      const last = entries[entries.length - 1];
      const more = last !== undefined && (newest ? last.seq > 1 : last.seq < audit.seq);
      const nextCursor = more && last !== undefined ? String(last.seq) : null;
      if (nextCursor !== null)
        ctx.res.setHeader('Link', `</api/public/v1/audit-log?limit=${limit}&cursor=${nextCursor}>; rel="next"`);
      return {
        tenant: ctx.tenant,
        order: newest ? 'newest_first' : 'oldest_first',
        count: entries.length,
        entries,
        truncated: more,
        nextCursor,
        proof: w.opts.proofLabels
          ? { algorithm: 'sha256', canonicalization: 'RFC8785', ...w.signer.proof(audit, entries) }
          : w.signer.proof(audit, entries),
      };
    },
  },
];

function missing(field: string): never {
  throw invalid(`${field} is required.`);
}
