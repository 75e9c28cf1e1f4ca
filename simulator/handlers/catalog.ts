import { ApiError } from '../core/api-error.ts';
import { type DataReply, ok, okJson } from '../core/reply.ts';
import { andThen } from '../state/ports/maybe-promise.ts';
import { decideCapability, type DecisionConnection } from './capability-decision.ts';
import type { HandlerDeps, HandlerGroup } from './types.ts';

export type CatalogDeps = Pick<HandlerDeps, 'catalog' | 'connections'>;

const str = (v: unknown) => (typeof v === 'string' ? v : undefined);

/**
 * Catalog answers are the same for every caller between reloads, so the reply (value and its JSON)
 * is cached per query and only the envelope (requestId, at) is built per request.
 */
function cachedReply(deps: CatalogDeps, key: string, build: () => unknown): DataReply {
  const cache = catalogCache(deps);
  const gen = deps.catalog.generation();
  if (cache.gen !== gen) {
    cache.gen = gen;
    cache.entries.clear();
  }
  let reply = cache.entries.get(key);
  if (reply === undefined) {
    const data = build();
    reply = okJson(data, JSON.stringify(data));
    if (cache.entries.size < 2000) cache.entries.set(key, reply);
  }
  return reply;
}
const caches = new WeakMap<object, { gen: number; entries: Map<string, DataReply> }>();
function catalogCache(deps: CatalogDeps) {
  let c = caches.get(deps.catalog);
  if (!c) {
    c = { gen: -1, entries: new Map() };
    caches.set(deps.catalog, c);
  }
  return c;
}

export const catalogHandlers = {
  listProviders(ctx, deps) {
    const category = str(ctx.query.category);
    return cachedReply(deps, `p|${category ?? ''}`, () => {
      const providers = deps.catalog.providers(category);
      return { count: providers.length, providers };
    });
  },
  listConnectors(ctx, deps) {
    const filter = {
      capability: str(ctx.query.capability),
      providerId: str(ctx.query.providerId),
      category: str(ctx.query.category),
    };
    return cachedReply(deps, `c|${filter.capability ?? ''}|${filter.providerId ?? ''}|${filter.category ?? ''}`, () => {
      const connectors = deps.catalog.connectors(filter);
      return { count: connectors.length, connectors };
    });
  },
  listCapabilities(_ctx, deps) {
    return cachedReply(deps, 'k', () => {
      const capabilities = deps.catalog.capabilities();
      return { count: capabilities.length, capabilities };
    });
  },
  checkCapability(ctx, deps) {
    const body = ctx.body;
    const environment = body.environment ?? 'sandbox';
    if (!deps.catalog.connector(body.connectorId)) {
      throw new ApiError('not_found', {
        detail: `No connector with the id given in body field connectorId.`,
        hint: 'GET /api/public/v1/connectors lists the connectors.',
      });
    }
    return andThen(deps.connections.forConnector(ctx.access.tenant, body.connectorId, environment), (found) => {
      const connections: DecisionConnection[] = found.map((c) => ({
        state: c.state,
        capabilities: c.capabilities.map((x) => x.capability),
      }));
      const decision = decideCapability(
        deps.catalog,
        { connectorId: body.connectorId, capability: body.capability, environment },
        connections,
      );
      return ok({ decision, environment });
    });
  },
} satisfies HandlerGroup<CatalogDeps>;
