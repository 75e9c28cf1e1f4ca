import type { Clock } from '../lib/clock.ts';
import { newId } from '../lib/ids.ts';
import type { MaybePromise } from '../state/ports/maybe-promise.ts';
import {
  type Begin,
  type IdempotencyOptions,
  type IdempotencyPort,
  type IdempotencyRecord,
  type IdempotencyRepository,
  idempotencyOptions,
  idempotencyRecordId,
  type IssuedKey,
  type StoredOutcome,
} from '../state/ports/idempotency.ts';

export * from '../state/ports/idempotency.ts';

export interface IdempotencyServiceDeps {
  repository: IdempotencyRepository;
  /** The sandbox clock: expiry is judged on it (a sandbox moved a day ahead sees yesterday's keys expired). */
  clock: Clock;
  options?: Partial<IdempotencyOptions>;
}

const CONFLICT: Begin = { kind: 'conflict' };

/**
 * An operation in flight in this process: what `begin` answers for a fresh use of a key, and where
 * concurrent duplicates wait. A class, so a call costs one object (no closures). Waiting is
 * in-process whatever the repository: a promise cannot be stored.
 */
class InFlight {
  readonly kind = 'new';
  waiters: (() => void)[] | undefined;
  readonly record: IdempotencyRecord;
  private readonly done: (op: InFlight, outcome: StoredOutcome | undefined) => MaybePromise<void>;
  constructor(
    record: IdempotencyRecord,
    done: (op: InFlight, outcome: StoredOutcome | undefined) => MaybePromise<void>,
  ) {
    this.record = record;
    this.done = done;
    this.waiters = undefined;
  }
  finish(outcome: StoredOutcome | undefined): MaybePromise<void> {
    return this.done(this, outcome);
  }
  settled(): Promise<void> {
    return new Promise((resolve) => {
      if (this.waiters) this.waiters.push(resolve);
      else this.waiters = [resolve];
    });
  }
  wake(): void {
    const waiters = this.waiters;
    this.waiters = undefined;
    if (waiters) for (const w of waiters) w();
  }
}

/**
 * Idempotency rules over the records' repository: a key's content is its fingerprint (same -> replay
 * the kept outcome, other -> conflict), an operation in flight makes duplicates wait, a key expires
 * `ttlMs` after its first use on the sandbox clock (an issued key keeps the expiry its issue answer
 * announced), and at most `maxRecords` are kept, the oldest dropped first. Only outcomes worth
 * replaying are kept: `finish(undefined)` frees the key again.
 * @example const b = await service.begin('t1', 'key-12345', fingerprint); if (b.kind === 'new') b.finish(outcome);
 */
export function createIdempotencyService(deps: IdempotencyServiceDeps): IdempotencyPort {
  const { repository: repo, clock } = deps;
  const options = idempotencyOptions(deps.options);
  // Record id -> its operation in flight here. Only this process can settle it.
  const inFlight = new Map<string, InFlight>();

  /** Drops the oldest records while over the bound or expired (an expired one in flight stays). */
  function sweep(now: number): MaybePromise<void> {
    for (;;) {
      const size = repo.count();
      const oldest = repo.oldest();
      if (size instanceof Promise || oldest instanceof Promise) return sweepLater(now, size, oldest);
      if (!oldest || !(size > options.maxRecords || (oldest.expiresAt <= now && !inFlight.has(oldest.id)))) return;
      const removed = repo.remove(oldest.id);
      if (removed instanceof Promise) return removed.then(() => sweep(now));
    }
  }
  async function sweepLater(
    now: number,
    size: MaybePromise<number>,
    oldest: MaybePromise<IdempotencyRecord | undefined>,
  ): Promise<void> {
    const [n, r] = await Promise.all([size, oldest]);
    if (!r || !(n > options.maxRecords || (r.expiresAt <= now && !inFlight.has(r.id)))) return;
    await repo.remove(r.id);
    return sweep(now);
  }
  function keep(record: IdempotencyRecord): MaybePromise<void> {
    const put = repo.insert(record);
    const now = clock.now();
    return put instanceof Promise ? put.then(() => sweep(now)) : sweep(now);
  }

  /** The end of an operation: its outcome kept, or the key freed; waiters wake once that is written. */
  function done(op: InFlight, outcome: StoredOutcome | undefined): MaybePromise<void> {
    const write = settle(op, outcome);
    if (write instanceof Promise) return write.then(() => op.wake());
    op.wake();
  }
  function settle(op: InFlight, outcome: StoredOutcome | undefined): MaybePromise<void> {
    const r = op.record;
    // A record dropped meanwhile (the bound, a reset) is not written back.
    if (inFlight.get(r.id) !== op) return;
    inFlight.delete(r.id);
    if (outcome) {
      r.outcome = outcome;
      return repo.update(r);
    }
    if (!r.operation) return repo.remove(r.id);
    r.fingerprint = undefined; // an issued key stays issued, free for its first use again
    return repo.update(r);
  }

  function decide(
    id: string,
    tenant: string,
    key: string,
    fp: string,
    now: number,
    found: IdempotencyRecord | undefined,
  ) {
    const running = inFlight.get(id);
    const r = found && (found.expiresAt > now || running) ? found : undefined;
    if (r?.fingerprint !== undefined) {
      if (r.fingerprint !== fp) return CONFLICT;
      if (r.outcome) return { kind: 'replay', outcome: r.outcome } satisfies Begin;
      if (running) return { kind: 'wait', settled: running.settled() } satisfies Begin;
    }
    const record: IdempotencyRecord = {
      id,
      tenant,
      key,
      operation: r?.operation,
      fingerprint: fp,
      // An issued key keeps the expiry its issue answer announced (item 13): first use does not extend it.
      expiresAt: r?.operation ? r.expiresAt : now + options.ttlMs,
      outcome: undefined,
    };
    const op = new InFlight(record, done);
    inFlight.set(id, op);
    const kept = keep(record);
    return kept instanceof Promise ? kept.then(() => op) : op;
  }

  return {
    options,
    issue(tenant, operation, now = clock.now()) {
      const key = newId('idk', 24);
      const expiresAt = now + options.ttlMs;
      const record: IdempotencyRecord = {
        id: idempotencyRecordId(tenant, key),
        tenant,
        key,
        operation,
        fingerprint: undefined,
        expiresAt,
        outcome: undefined,
      };
      const issued: IssuedKey = { idempotencyKey: key, operation, expiresAt };
      const kept = keep(record);
      return kept instanceof Promise ? kept.then(() => issued) : issued;
    },
    begin(tenant, key, fingerprint) {
      const now = clock.now();
      const id = idempotencyRecordId(tenant, key);
      const found = repo.find(id);
      if (found instanceof Promise) return found.then((r) => decide(id, tenant, key, fingerprint, now, r));
      return decide(id, tenant, key, fingerprint, now, found);
    },
    size: () => repo.count(),
    clear() {
      inFlight.clear();
      return repo.clear();
    },
  };
}
