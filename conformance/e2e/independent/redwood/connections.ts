// Connections of a tenant and their lifecycle: PROVISIONING, then READY after a short provisioning delay
// (PAUSED exists for connections an operator pauses; a paused connection refuses capability use with
// capability_denied). Each change is published on the stream and to webhooks as a CloudEvent.
import type { Access } from './auth.ts';
import { capability, connector, ENVIRONMENTS } from './catalog.ts';
import { ApiError, invalid, newId, notFound, str } from './http-util.ts';

export interface Connection {
  id: string;
  tenant: string;
  connectorId: string;
  environment: string;
  scopeLabel: string;
  state: 'PROVISIONING' | 'READY' | 'PAUSED';
  capabilities: { capability: string; critical: boolean; idempotencyRequired: boolean }[];
  createdAt: string;
  updateTime: string;
}

type Emit = (
  tenant: string,
  type: string,
  subject: string,
  full: Record<string, unknown>,
  redacted: Record<string, unknown>,
) => void;

const NEXT_STEP = { PROVISIONING: 'WAIT_FOR_READY', READY: 'NONE', PAUSED: 'CONTACT_SUPPORT_TO_RESUME' };

export function view(c: Connection): Record<string, unknown> {
  const { tenant: _t, ...rest } = c;
  return {
    ...rest,
    name: `connections/${c.id}`,
    capabilities: c.capabilities.map((x) => ({ ...x })),
    nextStep: NEXT_STEP[c.state],
  };
}

export function environmentOf(v: unknown, field = 'environment'): string {
  if (typeof v !== 'string' || !ENVIRONMENTS.includes(v)) throw invalid(`${field}: one of ${ENVIRONMENTS.join(', ')}`);
  return v;
}

export function createConnections(emit: Emit, readyAfterMs: number) {
  const all = new Map<string, Connection>();
  const timers = new Set<NodeJS.Timeout>();

  const publish = (c: Connection, verb: string) =>
    emit(
      c.tenant,
      `com.network.connection.v1.${verb}`,
      `connections/${c.id}`,
      { connection: view(c) },
      { connection: { id: c.id, state: c.state } },
    );

  /** The body's shape (400); the catalog is asked when the connection is created (resolve). */
  function validate(body: Record<string, unknown>) {
    const connectorId = str(body, 'connectorId', 2, 120) ?? '';
    if (body.environment === undefined) throw invalid('environment: required');
    const environment = environmentOf(body.environment);
    const scopeLabel = str(body, 'scopeLabel', 2, 120) ?? '';
    const caps = body.capabilities;
    if (!Array.isArray(caps)) throw invalid('capabilities: required, an array of 1 to 24 strings');
    if (caps.length < 1 || caps.length > 24) throw invalid('capabilities: 1 to 24 items');
    for (const [i, c] of caps.entries())
      if (typeof c !== 'string' || c.length < 2 || c.length > 120)
        throw invalid(`capabilities[${i}]: a string of length 2 to 120`);
    return { connectorId, environment, scopeLabel, requested: [...new Set(caps as string[])] };
  }

  /** The catalog's answer for a valid body: 404 for an unknown connector, 409 for a capability it does not offer. */
  function resolve(v: ReturnType<typeof validate>) {
    const { connectorId, environment, scopeLabel } = v;
    const conn = connector(connectorId);
    if (!conn) throw notFound(`connectorId: no connector ${connectorId}`);
    const capabilities = v.requested.map((id) => {
      const cap = capability(id);
      if (!cap || !conn.capabilities.includes(id))
        throw new ApiError(
          409,
          'capability_denied',
          'The capability is not released for this connection.',
          `${id}: not offered by connector ${conn.id}`,
          'Have the capability released, or choose a connector that offers it.',
        );
      return { capability: id, critical: cap.critical, idempotencyRequired: cap.idempotencyRequired };
    });
    return { connectorId, environment, scopeLabel, capabilities };
  }

  function create(access: Access, v: ReturnType<typeof validate>): Record<string, unknown> {
    const now = new Date().toISOString();
    const c: Connection = {
      id: newId('conn'),
      tenant: access.tenant,
      ...resolve(v),
      state: 'PROVISIONING',
      createdAt: now,
      updateTime: now,
    };
    all.set(c.id, c);
    const created = view(c);
    publish(c, 'created');
    const timer = setTimeout(() => {
      timers.delete(timer);
      c.state = 'READY';
      c.updateTime = new Date().toISOString();
      publish(c, 'ready');
    }, readyAfterMs);
    timers.add(timer);
    return created;
  }

  function list(access: Access): Record<string, unknown>[] {
    return [...all.values()].filter((c) => c.tenant === access.tenant).map(view);
  }

  function get(access: Access, id: string): Record<string, unknown> {
    const c = all.get(id);
    if (!c || c.tenant !== access.tenant) throw notFound(`connections/${id}`);
    return view(c);
  }

  function close(): void {
    for (const t of timers) clearTimeout(t);
  }

  return { validate, create, list, get, close };
}
