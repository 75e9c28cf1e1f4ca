import type { Connection } from '../contract/connections.ts';
import type { Environment } from '../contract/environment.ts';
import type { Clock } from '../lib/clock.ts';
import { newId } from '../lib/ids.ts';
import { must } from '../lib/invariant.ts';
import { isoTime } from '../lib/iso-time.ts';
import type { Timeline } from '../lib/timeline.ts';
import type { EventBus } from '../state/domain-events.ts';
import {
  type ConnectionRecord,
  type ConnectionRepository,
  copyConnection,
  type StoredConnection,
} from '../state/ports/connections.ts';
import { andThen, type MaybePromise } from '../state/ports/maybe-promise.ts';
import { canTransition, type ConnectionState, nextStepFor, TransitionError } from './connection-lifecycle.ts';

export { TransitionError };

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

/**
 * Tenant connections and their lifecycle over a repository port. With a timeline, transitions fire at
 * their due time on the sandbox clock with no request needed (its stream message and webhook go out on
 * time); reads also apply what fell due, so a late timer never shows a stale state. Each method answers
 * at once when the repository does (memory) and with a promise when it waits (a network store).
 * @example const c = await service.create({ tenant, connectorId, environment: 'sandbox', scopeLabel, capabilities }, caller);
 */
export interface ConnectionService {
  create(input: NewConnection, caller: Caller): MaybePromise<Connection>;
  list(tenant: string): MaybePromise<Connection[]>;
  get(tenant: string, id: string): MaybePromise<Connection | undefined>;
  /** Any tenant's connection (control plane). */
  find(id: string): MaybePromise<{ tenant: string; connection: Connection } | undefined>;
  /** Moves a connection to `to`: RangeError for an unknown id, TransitionError for a move the lifecycle forbids. */
  setState(id: string, to: ConnectionState, caller: Caller): MaybePromise<Connection>;
  /** The tenant's connections to one connector in one environment (capability decisions). */
  forConnector(tenant: string, connectorId: string, environment: Environment): MaybePromise<Connection[]>;
  count(): MaybePromise<number>;
  clear(): MaybePromise<void>;
  /** Applies the transitions that fell due (a shared sandbox applies them as one replicated operation). */
  applyDue(): MaybePromise<void>;
  /** When the earliest pending transition falls due (sandbox ms), if any. */
  nextDue(): MaybePromise<number | undefined>;
}

export interface ConnectionServiceDeps {
  repository: ConnectionRepository;
  clock: Clock;
  events: EventBus;
  /** Delay before a new connection turns from pending to active (ms; 0 = active at once). */
  activationDelayMs: number;
  /** Fires due transitions on time (without it they apply on the next read). */
  timeline?: Timeline;
  /**
   * Reads apply what fell due (default true). A shared sandbox turns it off: a read must not change
   * one replica's state alone, so due transitions go through its operation log instead.
   */
  applyDueOnRead?: boolean;
}

const SYSTEM: Caller = { actor: 'system', requestId: 'lifecycle' };

/** @example const connections = createConnectionService({ repository: createConnectionsStore(), clock, events, activationDelayMs: 2000, timeline }); */
export function createConnectionService(deps: ConnectionServiceDeps): ConnectionService {
  const { repository: repo, clock, events } = deps;
  const onRead = deps.applyDueOnRead !== false;

  // One timeline task at a time, for the earliest pending activation.
  let wake: { due: number; cancel: () => void } | undefined;
  function wakeAt(next: number | undefined) {
    if (!deps.timeline || next === undefined || (wake && wake.due <= next)) return;
    wake?.cancel();
    wake = { due: next, cancel: deps.timeline.at(next, onWake) };
  }
  function onWake() {
    wake = undefined;
    const done = andThen(applyDue(), () => repo.nextDue());
    // A repository that failed to answer (a network store) is asked again a second later.
    if (done instanceof Promise) done.then(wakeAt, () => wakeAt(clock.now() + 1000));
    else wakeAt(done);
  }

  /** Writes a transition and announces it; answers the changed connection (undefined: it is gone). */
  function transition(
    tenant: string,
    id: string,
    from: ConnectionState,
    to: ConnectionState,
    caller: Caller,
    at: number,
  ) {
    const changed = repo.update(id, { state: to, nextStep: nextStepFor(to), updatedAt: isoTime(at) });
    const announce = (c: ConnectionRecord | undefined) => {
      if (c)
        events.emit({
          type: 'connection.state_changed',
          tenant,
          actor: caller.actor,
          requestId: caller.requestId,
          at,
          target: { type: 'connection', id },
          data: { from, to, connection: c },
        });
      return c;
    };
    return changed instanceof Promise ? changed.then(announce) : announce(changed);
  }

  function activateAll(due: readonly StoredConnection[], from = 0): MaybePromise<void> {
    for (let i = from; i < due.length; i++) {
      const s = must(due[i], 'an index inside the due list');
      const at = must(s.activatesAt, 'a pending connection has an activation time');
      const done = transition(s.tenant, s.connection.id, s.connection.state, 'active', SYSTEM, at);
      if (done instanceof Promise) return done.then(() => activateAll(due, i + 1));
    }
  }

  function applyDue(): MaybePromise<void> {
    const due = repo.takeDue(clock.now());
    if (due instanceof Promise) return due.then((d) => activateAll(d));
    return due.length ? activateAll(due) : undefined;
  }

  /** A read that first applies what fell due (unless the sandbox is shared). */
  function read<T>(fn: () => MaybePromise<T>): MaybePromise<T> {
    if (!onRead) return fn();
    const applied = applyDue();
    return applied instanceof Promise ? applied.then(fn) : fn();
  }

  function insertNew(input: NewConnection, caller: Caller): MaybePromise<Connection> {
    const at = caller.at ?? clock.now();
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
    // The record itself for the event (feed message, webhook payload) and the answer: all of them only
    // read it, and the repository never changes a kept record (a transition puts a new one in its place).
    const snapshot = stored.connection;
    const announce = () => {
      wakeAt(stored.activatesAt);
      events.emit({
        type: 'connection.created',
        tenant: input.tenant,
        actor: caller.actor,
        requestId: caller.requestId,
        at,
        target: { type: 'connection', id: snapshot.id },
        data: { connection: snapshot },
      });
      return snapshot;
    };
    const inserted = repo.insert(stored);
    return inserted instanceof Promise ? inserted.then(announce) : announce();
  }

  // Connections kept from an earlier run (--data-dir) activate on time too.
  const first = repo.nextDue();
  if (first instanceof Promise) first.then(wakeAt, () => wakeAt(clock.now() + 1000));
  else wakeAt(first);

  return {
    create(input, caller) {
      const applied = applyDue();
      return applied instanceof Promise ? applied.then(() => insertNew(input, caller)) : insertNew(input, caller);
    },
    list: (tenant) => read(() => repo.list(tenant)),
    get: (tenant, id) =>
      read(() => andThen(repo.find(id), (found) => (found && found.tenant === tenant ? found.connection : undefined))),
    find: (id) => read(() => repo.find(id)),
    forConnector: (tenant, connectorId, environment) => read(() => repo.forTarget(tenant, connectorId, environment)),
    setState(id, to, caller) {
      return andThen(applyDue(), () =>
        andThen(repo.find(id), (found): MaybePromise<Connection> => {
          if (!found) throw new RangeError(`no connection ${id}`);
          const from = found.connection.state;
          if (from === to) return found.connection;
          if (!canTransition(from, to)) throw new TransitionError(from, to);
          const at = caller.at ?? clock.now();
          // The event keeps its own copy: the caller may change what it is answered.
          return andThen(transition(found.tenant, id, from, to, caller, at), (c) =>
            copyConnection(must(c, 'a connection just found is still stored')),
          );
        }),
      );
    },
    count: () => repo.count(),
    applyDue,
    nextDue: () => repo.nextDue(),
    clear() {
      wake?.cancel();
      wake = undefined;
      return repo.clear();
    },
  };
}
