// Connections of each tenant, with our own lifecycle: PROVISIONING -> ACTIVE (after 1.5 s), SUSPENDED (seeded).
import { randomBytes } from 'node:crypto';
import { CAPABILITIES, CONNECTORS, decide } from './catalog.ts';
import { ApiError, isoTime } from './http-util.ts';

export type ConnectionState = 'PROVISIONING' | 'ACTIVE' | 'SUSPENDED';
export type Connection = {
  id: string;
  connectorId: string;
  environment: string;
  scopeLabel: string;
  state: ConnectionState;
  capabilities: { capability: string; critical: boolean; idempotencyRequired: boolean }[];
  nextStep: string;
  createdAt: string;
  stateChangedAt: string;
  revision: number;
};
const NEXT_STEP: Record<ConnectionState, string> = {
  PROVISIONING: 'WAIT_FOR_ACTIVATION',
  ACTIVE: 'NONE',
  SUSPENDED: 'CONTACT_ACCOUNT_MANAGER',
};
const ACTIVATION_DELAY_MS = 1500;

export type ConnectionEvents = (tenant: string, type: string, connection: Connection) => void;

export function createConnections(onEvent: ConnectionEvents, activationDelayMs = ACTIVATION_DELAY_MS) {
  const byTenant = new Map<string, Connection[]>();
  const timers = new Set<NodeJS.Timeout>();

  const newId = (): string => `CON-${randomBytes(5).toString('hex').toUpperCase()}`;
  const listOf = (tenant: string): Connection[] => {
    let l = byTenant.get(tenant);
    if (l === undefined) {
      l = [];
      byTenant.set(tenant, l);
    }
    return l;
  };

  function transition(tenant: string, c: Connection, state: ConnectionState): void {
    c.state = state;
    c.nextStep = NEXT_STEP[state];
    c.stateChangedAt = isoTime();
    c.revision += 1;
    onEvent(tenant, state === 'ACTIVE' ? 'CONNECTION_ACTIVATED' : 'CONNECTION_SUSPENDED', c);
  }

  return {
    seedSuspended(tenant: string): void {
      const now = isoTime(new Date(Date.now() - 86400000));
      listOf(tenant).push({
        id: newId(),
        connectorId: 'tollgate-declare',
        environment: 'pilot',
        scopeLabel: 'Hamburg Hub Customs Desk',
        state: 'SUSPENDED',
        capabilities: [{ capability: 'customs.status', critical: false, idempotencyRequired: false }],
        nextStep: NEXT_STEP.SUSPENDED,
        createdAt: now,
        stateChangedAt: now,
        revision: 2,
      });
    },
    list(tenant: string): Connection[] {
      return listOf(tenant).map((c) => structuredClone(c));
    },
    /** Synchronous on purpose: the idempotency store relies on no interleaving. */
    create(
      tenant: string,
      input: { connectorId: string; environment: string; scopeLabel: string; capabilities: string[] },
    ): Connection {
      const connector = CONNECTORS.find((c) => c.id === input.connectorId);
      if (connector === undefined)
        throw new ApiError('not_found', 'connector not found', { hint: 'see GET /api/public/v1/connectors' });
      const wanted = [...new Set(input.capabilities)];
      for (const capability of wanted) {
        const d = decide(connector, capability, input.environment);
        if (!d.allowed)
          throw new ApiError('capability_denied', 'capability is not released for this connection', {
            detail: d.reason,
          });
      }
      const now = isoTime();
      const c: Connection = {
        id: newId(),
        connectorId: connector.id,
        environment: input.environment,
        scopeLabel: input.scopeLabel,
        state: 'PROVISIONING',
        capabilities: wanted.map((id) => {
          const cap = CAPABILITIES.find((x) => x.id === id);
          return {
            capability: id,
            critical: cap?.critical ?? false,
            idempotencyRequired: cap?.idempotencyRequired ?? false,
          };
        }),
        nextStep: NEXT_STEP.PROVISIONING,
        createdAt: now,
        stateChangedAt: now,
        revision: 1,
      };
      listOf(tenant).push(c);
      onEvent(tenant, 'CONNECTION_CREATED', c);
      const t = setTimeout(() => {
        timers.delete(t);
        transition(tenant, c, 'ACTIVE');
      }, activationDelayMs);
      timers.add(t);
      return structuredClone(c);
    },
    close(): void {
      for (const t of timers) clearTimeout(t);
    },
  };
}
export type Connections = ReturnType<typeof createConnections>;
