import { ENVIRONMENTS } from '../../simulator/contract/environment.ts';
import { creationBase } from '../checks/support/connections.ts';
import { knownPair } from '../checks/support/samples.ts';
import type { CheckContext } from '../runner/check.ts';
import { textOf } from './draw.ts';
import type { ValidCall } from './probes.ts';
import type { Operation, RequestField } from './request-fields.ts';

/** What the target's own data offers for the values that must refer to it (catalog entries). */
interface Known {
  connectorId?: string;
  capability?: string;
  environment: string;
}

/**
 * Valid values by field name where a value must refer to the target's data or the interface gives an
 * example; every other value is drawn inside its bounds. Undefined: the target offers nothing to use.
 */
const BY_NAME: Record<string, (k: Known, ctx: CheckContext) => unknown> = {
  connectorId: (k) => k.connectorId,
  capability: (k) => k.capability,
  capabilities: (k) => (k.capability ? [k.capability] : undefined),
  environment: (k) => k.environment,
  scopeLabel: (_k, ctx) => ctx.label('probe'),
  // The interface's example of an operation name.
  operation: () => 'connection.create',
  'Idempotency-Key': (_k, ctx) => ctx.label('probe-key'),
};

function drawnValid(f: RequestField, ctx: CheckContext): unknown {
  const t = f.type;
  if (t.type === 'string') return textOf(Math.max(t.min ?? 1, Math.min(t.max ?? 12, 12)), ctx.seed, f.name);
  if (t.type === 'enum') return t.values[0];
  if (t.type === 'integer') return String(t.min ?? 0);
  return undefined;
}

/**
 * A factory of valid calls of `op` on this target (fresh labels each call), or the reason there is
 * none (e.g. the catalog offers no connector the target allows).
 * @example const make = await validCalls(ctx, op); if (typeof make === 'string') ctx.skip(make);
 */
export async function validCalls(ctx: CheckContext, op: Operation): Promise<((id: string) => ValidCall) | string> {
  const needsCatalog = op.fields.some((f) => ['connectorId', 'capability', 'capabilities'].includes(f.name));
  const creating = op.route.idempotent === true;
  const environment = ctx.target.environment;
  const known: Known = {
    environment:
      environment !== undefined && (ENVIRONMENTS as readonly string[]).includes(environment) ? environment : 'sandbox',
  };
  if (needsCatalog) {
    const base = creating ? await creationBase(ctx) : undefined;
    const pair = base ? { connectorId: base.connectorId, capability: base.capabilities[0] } : await knownPair(ctx);
    if (!pair?.connectorId || !pair.capability)
      return creating
        ? 'found no connector and capability the target allows: no valid creation to start the probes from'
        : 'GET /connectors lists no connector with a capability: no valid call to start the probes from';
    Object.assign(known, pair, base ? { environment: base.environment } : {});
  }
  return () => {
    const call: ValidCall = { query: {}, headers: {} };
    for (const f of op.fields) {
      // Optional query parameters stay out of the valid call; their probes set them.
      if (f.in === 'query' && !f.required) continue;
      const value = BY_NAME[f.name]?.(known, ctx) ?? drawnValid(f, ctx);
      if (f.in === 'body') call.body = { ...call.body, [f.name]: value };
      else (f.in === 'query' ? call.query : call.headers)[f.name] = String(value);
    }
    if (op.route.body && !call.body) call.body = {};
    return call;
  };
}
