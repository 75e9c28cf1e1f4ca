import type { Connection } from '../contract/connections.ts';
import type { Environment } from '../contract/environment.ts';
import type { Clock } from '../lib/clock.ts';
import { canTransition, nextStepFor, type ConnectionState } from './connection-lifecycle.ts';
import type { EventBus } from './domain-events.ts';
import { createDueQueue } from '../lib/due-queue.ts';
import { newId } from '../lib/ids.ts';
import { isoTime } from '../lib/iso-time.ts';
import { memoryOnly, type Persistence } from './persistence/persistence.ts';
import type { Timeline } from '../lib/timeline.ts';
import { must } from '../lib/invariant.ts';

const NS = 'connections';

interface StoredConnection {
  tenant: string;
  /** When a pending connection becomes active (simulator clock, ms). */
  activatesAt: number | undefined;
  connection: Connection & { state: ConnectionState; updatedAt: string };
}

export interface Caller {
  actor: string;
  requestId: string;
  /** Time of the call (simulator clock, ms); defaults to now. */
  at?: number;
}

export interface NewConnection {
  tenant: string;
  connectorId: string;
  environment: Environment;
  scopeLabel: string;
  capabilities: Connection['capabilities'];
}

export class TransitionError extends Error {
  readonly from: ConnectionState;
  readonly to: ConnectionState;
  constructor(from: ConnectionState, to: ConnectionState) {
    super(`a ${from} connection cannot become ${to}`);
    this.from = from;
    this.to = to;
  }
}

/**
 * Tenant connections and their lifecycle. With a timeline, transitions fire at their due time on the
 * sandbox clock with no request needed (its stream message and webhook go out on time); reads also
 * apply what fell due, so a late timer never shows a stale state.
 * @example const c = store.create({ tenant, connectorId, environment: 'sandbox', scopeLabel, capabilities }, caller);
 */
export interface ConnectionsStore {
  create(input: NewConnection, caller: Caller): Connection;
  list(tenant: string): Connection[];
  get(tenant: string, id: string): Connection | undefined;
  /** Any tenant's connection (control plane). */
  find(id: string): { tenant: string; connection: Connection } | undefined;
  setState(id: string, to: ConnectionState, caller: Caller): Connection;
  /** The tenant's connections to one connector in one environment (capability decisions). */
  forConnector(tenant: string, connectorId: string, environment: Environment): Connection[];
  count(): number;
  clear(): void;
  /** Applies the transitions that fell due (a shared sandbox applies them as one replicated operation). */
  applyDue(): void;
  /** When the earliest pending transition falls due (sandbox ms), if any. */
  nextDue(): number | undefined;
}

export function createConnectionsStore(deps: {
  clock: Clock;
  events: EventBus;
  activationDelayMs: number;
  persistence?: Persistence;
  /** Fires due transitions on time (without it they apply on the next read). */
  timeline?: Timeline;
  /**
   * Reads apply what fell due (default true). A shared sandbox turns it off: a read must not change
   * one replica's state alone, so due transitions go through its operation log instead.
   */
  applyDueOnRead?: boolean;
}): ConnectionsStore {
  const onRead = deps.applyDueOnRead === false ? () => {} : () => applyDue();
  const persistence = deps.persistence ?? memoryOnly;
  const byId = new Map<string, StoredConnection>();
  const byTenant = new Map<string, StoredConnection[]>();
  // Capability checks ask for one tenant's connections to one connector in one environment: indexed,
  // so a check costs the same with ten or a hundred thousand stored connections.
  const byTarget = new Map<string, StoredConnection[]>();
  const target = (tenant: string, connectorId: string, environment: Environment) =>
    `${tenant}\u0000${connectorId}\u0000${environment}`;
  const pending = new Set<StoredConnection>();
  // Pending connections by activation time; entries of connections that left `pending` are skipped.
  const due = createDueQueue<StoredConnection>();
  const index = (stored: StoredConnection) => {
    byId.set(stored.connection.id, stored);
    const list = byTenant.get(stored.tenant) ?? [];
    list.push(stored);
    byTenant.set(stored.tenant, list);
    const key = target(stored.tenant, stored.connection.connectorId, stored.connection.environment);
    const same = byTarget.get(key);
    if (same) same.push(stored);
    else byTarget.set(key, [stored]);
    if (stored.activatesAt !== undefined) {
      pending.add(stored);
      due.push(stored.activatesAt, stored);
      wakeAtEarliest();
    }
  };
  // One timeline task at a time, for the earliest pending activation.
  let wake: { due: number; cancel: () => void } | undefined;
  function wakeAtEarliest() {
    const next = due.peek();
    if (!deps.timeline || (wake && next !== undefined && wake.due <= next)) return;
    wake?.cancel();
    wake = undefined;
    if (next === undefined) return;
    wake = {
      due: next,
      cancel: deps.timeline.at(next, () => {
        wake = undefined;
        applyDue();
        wakeAtEarliest();
      }),
    };
  }

  function transition(s: StoredConnection, to: ConnectionState, caller: Caller, at: number) {
    const from = s.connection.state;
    s.connection.state = to;
    s.connection.nextStep = nextStepFor(to);
    s.connection.updatedAt = isoTime(at);
    s.activatesAt = undefined;
    pending.delete(s);
    persistence.put(NS, s.connection.id, s);
    deps.events.emit({
      type: 'connection.state_changed',
      tenant: s.tenant,
      actor: caller.actor,
      requestId: caller.requestId,
      at,
      target: { type: 'connection', id: s.connection.id },
      data: { from, to, connection: { ...s.connection } },
    });
  }

  function applyDue() {
    if (pending.size === 0) {
      if (due.size()) due.clear();
      return;
    }
    const now = deps.clock.now();
    if ((due.peek() ?? Infinity) > now) return;
    for (const s of due.popDue(now)) {
      if (!pending.has(s)) continue;
      const at = must(s.activatesAt, 'a pending connection has an activation time');
      transition(s, 'active', { actor: 'system', requestId: 'lifecycle' }, at);
    }
  }
  for (const [, stored] of persistence.entries<StoredConnection>(NS)) index(stored);

  const copy = (s: StoredConnection): Connection => ({
    ...s.connection,
    capabilities: s.connection.capabilities.map((c) => ({ ...c })),
  });

  return {
    create(input, caller) {
      applyDue();
      const at = caller.at ?? deps.clock.now();
      const immediate = deps.activationDelayMs <= 0;
      const state: ConnectionState = immediate ? 'active' : 'pending';
      const created = isoTime(at);
      const stored: StoredConnection = {
        tenant: input.tenant,
        activatesAt: immediate ? undefined : at + deps.activationDelayMs,
        connection: {
          id: newId('con'),
          connectorId: input.connectorId,
          environment: input.environment,
          scopeLabel: input.scopeLabel,
          state,
          capabilities: input.capabilities,
          nextStep: nextStepFor(state),
          createdAt: created,
          updatedAt: created,
        },
      };
      persistence.put(NS, stored.connection.id, stored);
      index(stored);
      const snapshot = copy(stored);
      deps.events.emit({
        type: 'connection.created',
        tenant: input.tenant,
        actor: caller.actor,
        requestId: caller.requestId,
        at,
        target: { type: 'connection', id: stored.connection.id },
        data: { connection: snapshot },
      });
      // One snapshot for the event (feed message, webhook payload) and the answer: both only read it,
      // and the stored record, which transitions change, is never handed out.
      return snapshot;
    },
    list(tenant) {
      onRead();
      return (byTenant.get(tenant) ?? []).map(copy);
    },
    get(tenant, id) {
      onRead();
      const s = byId.get(id);
      return s && s.tenant === tenant ? copy(s) : undefined;
    },
    find(id) {
      onRead();
      const s = byId.get(id);
      return s ? { tenant: s.tenant, connection: copy(s) } : undefined;
    },
    setState(id, to, caller) {
      applyDue();
      const s = byId.get(id);
      if (!s) throw new RangeError(`no connection ${id}`);
      if (s.connection.state === to) return copy(s);
      if (!canTransition(s.connection.state, to)) throw new TransitionError(s.connection.state, to);
      transition(s, to, caller, caller.at ?? deps.clock.now());
      return copy(s);
    },
    forConnector(tenant, connectorId, environment) {
      onRead();
      return (byTarget.get(target(tenant, connectorId, environment)) ?? []).map(copy);
    },
    count: () => byId.size,
    applyDue,
    nextDue: () => (pending.size ? due.peek() : undefined),
    clear() {
      byId.clear();
      byTenant.clear();
      byTarget.clear();
      pending.clear();
      due.clear();
      wake?.cancel();
      wake = undefined;
      persistence.deleteNamespace(NS);
    },
  };
}
