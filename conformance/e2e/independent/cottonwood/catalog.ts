// The invented catalog's routes and the capability decision: read-only, the same for every tenant.
import { type Ctx, HttpError, ok, type Rec, readJson } from './http.ts';
import { capabilities, capabilityOf, connectors, ENVIRONMENTS, providers } from './state.ts';
import { t, validate } from './validate.ts';

const name = () => t.String({ minLength: 2, maxLength: 120 });
export const checkBody = t.Object({ connectorId: name(), capability: name(), environment: t.Enum(ENVIRONMENTS) }, [
  'environment',
]);

/** An unknown connector is a wrong identifier: 404, as the contract's error table names it. */
export function connectorOr404(id: string) {
  const connector = connectors.find((c) => c.id === id);
  if (!connector) throw new HttpError(404, 'not_found', 'No such connector', `connectorId ${id} is not in the catalog`);
  return connector;
}

export class CatalogRoutes {
  providers(ctx: Ctx) {
    const category = ctx.query.get('category');
    const list = providers.filter((p) => category === null || p.category === category);
    ok(ctx, { count: list.length, providers: list });
  }

  connectors(ctx: Ctx) {
    const q = (k: string) => ctx.query.get(k);
    const list = connectors.filter(
      (c) =>
        (q('capability') === null || c.capabilities.includes(q('capability') ?? '')) &&
        (q('providerId') === null || c.providerId === q('providerId')) &&
        (q('category') === null || c.category === q('category')),
    );
    ok(ctx, { count: list.length, connectors: list });
  }

  catalog(ctx: Ctx) {
    ok(ctx, { count: capabilities.length, capabilities });
  }

  /** An unknown connector is 404; a capability it does not offer is a decision "not allowed". */
  async check(ctx: Ctx) {
    const body = validate<Rec>(checkBody, await readJson(ctx));
    const environment = body.environment ?? 'sandbox';
    const connector = connectorOr404(body.connectorId);
    const cap = capabilityOf(body.capability);
    const offered = connector.capabilities.includes(body.capability);
    const reason = offered ? 'offered_by_connector' : cap ? 'not_offered_by_connector' : 'unknown_capability';
    const decision = {
      connectorId: connector.id,
      capability: body.capability,
      allowed: offered,
      critical: cap?.critical ?? false,
      idempotencyRequired: cap?.idempotencyRequired ?? false,
      reason,
    };
    ok(ctx, { decision, environment });
  }
}
