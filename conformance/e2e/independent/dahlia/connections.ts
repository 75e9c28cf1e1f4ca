// Connections per tenant. State `pending` turns `ready` lazily on the next read (our provisioning is instant,
// but we only confirm it when someone looks); each change is announced on the streams, webhooks and audit log.
import { capabilityById, connectorById } from './catalog.ts';
import { HttpError } from './http-kit.ts';
import { iso, uuidv7 } from './util.ts';

export interface Connection {
  id: string;
  connectorId: string;
  environment: string;
  scopeLabel: string;
  state: 'pending' | 'ready';
  capabilities: { capability: string; critical: boolean; idempotencyRequired: boolean }[];
  nextStep: string;
  createdAt: string;
}
export type Announce = (tenant: string, event: string, c: Connection) => void;

export function createConnections(announce: Announce) {
  const byTenant = new Map<string, Connection[]>();

  function create(
    tenant: string,
    input: { connectorId: string; environment: string; scopeLabel: string; capabilities: string[] },
  ): Connection {
    const connector = connectorById(input.connectorId);
    if (!connector)
      throw new HttpError(
        404,
        'not_found',
        'No connector with this connectorId.',
        'See GET /api/public/v1/connectors.',
      );
    const missing = input.capabilities.find((c) => !connector.capabilities.includes(c));
    if (missing !== undefined) {
      throw new HttpError(
        409,
        'capability_denied',
        'A requested capability is not released for this connector.',
        'Book only capabilities the connector lists, or have the capability released.',
      );
    }
    const id = uuidv7();
    const c: Connection = {
      id,
      connectorId: input.connectorId,
      environment: input.environment,
      scopeLabel: input.scopeLabel,
      state: 'pending',
      capabilities: input.capabilities.map((name) => {
        const cap = capabilityById(name);
        return {
          capability: name,
          critical: cap?.critical ?? false,
          idempotencyRequired: cap?.idempotencyRequired ?? false,
        };
      }),
      nextStep: `dahlia://connections/${id}/confirm`,
      createdAt: iso(),
    };
    const list = byTenant.get(tenant) ?? [];
    byTenant.set(tenant, list);
    list.push(c);
    announce(tenant, 'connection.created', c);
    return { ...c, capabilities: c.capabilities.map((x) => ({ ...x })) };
  }

  // A read settles every pending connection of the tenant first.
  function settle(tenant: string): void {
    for (const c of byTenant.get(tenant) ?? []) {
      if (c.state !== 'pending') continue;
      c.state = 'ready';
      c.nextStep = `dahlia://connections/${c.id}/use`;
      announce(tenant, 'connection.ready', c);
    }
  }

  function list(tenant: string): Connection[] {
    settle(tenant);
    return (byTenant.get(tenant) ?? []).map((c) => ({ ...c }));
  }

  function get(tenant: string, id: string): Connection {
    settle(tenant);
    const c = (byTenant.get(tenant) ?? []).find((x) => x.id === id);
    if (!c)
      throw new HttpError(
        404,
        'not_found',
        'No connection with this id for this tenant.',
        'Compare the identifier and the tenant header.',
      );
    return { ...c };
  }

  return { create, list, get };
}
export type Connections = ReturnType<typeof createConnections>;
