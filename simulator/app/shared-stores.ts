import { WEBHOOK_DEFAULTS } from '../contract/simulator-defaults.ts';
import type { Clock } from '../lib/clock.ts';
import { andThen } from '../state/ports/maybe-promise.ts';
import type { FaultCall } from '../services/fault-service.ts';
import type { OpLog } from '../state/redis/op-log.ts';
import { createRedisIdempotencyStore } from '../state/redis/redis-idempotency.ts';
import { createRedisRateLimits } from '../state/redis/redis-rate-limit.ts';
import type { RateLimitSettings } from '../services/rate-limit-service.ts';
import { hashToken } from '../services/secret-hash.ts';
import type { SandboxState, SharedStores } from './sandbox-state.ts';
import type { SharedStoreParts as SharedStore } from './shared-store-parts.ts';

/** The stores kept in Redis itself, for createSandboxState. */
export function sharedStoresOf(store: SharedStore, clock: Clock, ttlMs?: number): SharedStores {
  const { engine, log } = store;
  return {
    idempotency: (c) => createRedisIdempotencyStore(engine, c, ttlMs !== undefined ? { ttlMs } : {}),
    rateLimits: (c, initial: RateLimitSettings | false | undefined) => createRedisRateLimits(engine, c, initial),
    coordinator(timeoutMs) {
      const leaseMs = (timeoutMs ?? WEBHOOK_DEFAULTS.timeoutMs) + 2000;
      return {
        leaseMs,
        async claim(id, sequence, attempt) {
          // Replaying the log at start-up re-creates old deliveries: their outcomes follow in the log, so
          // nothing is claimed before the replay is over (the dispatcher then skips what was settled).
          await log.caughtUp();
          const key = `${engine.prefix}lease:${id}:${sequence}:${attempt}`;
          return (await engine.command(['SET', key, engine.replicaId, 'NX', 'PX', leaseMs])) === 'OK';
        },
        share(id, attempt, outcome, delay) {
          // Lost with Redis: the lease runs out and another replica makes the attempt again.
          log.submit('delivery.outcome', [id, attempt, outcome, delay], clock.now()).catch(() => {});
        },
      };
    },
  };
}

/**
 * Wraps a replica's tokens, faults and rate-limit settings so their changes are shared through the log,
 * and returns the operations that apply a shared change to the unwrapped stores.
 * @example const { ops } = shareLocalStores(state, share, () => applying, log, clock);
 */
export function shareLocalStores(
  state: SandboxState,
  share: (op: string, args: unknown[]) => void,
  isApplying: () => boolean,
  log: OpLog,
  clock: Clock,
) {
  const base = { tokens: state.tokens, faults: state.faults, rateLimits: state.rateLimits };

  // Tokens, a signature fault's use and rate-limit settings apply here at once and are then shared
  // (no numbering depends on them); a response waits until they are in Redis (`drain`).
  state.tokens = {
    ...base.tokens,
    issue(grant) {
      return andThen(base.tokens.issue(grant), (r) => {
        share('tokens.put', [hashToken(r.token), r.record]);
        return r;
      });
    },
    revoke(token) {
      share('tokens.revoke', [hashToken(token)]);
      return base.tokens.revoke(token);
    },
    revokeFamily(family) {
      share('tokens.revokeFamily', [family]);
      return base.tokens.revokeFamily(family);
    },
    revokeClient(clientId) {
      share('tokens.revokeClient', [clientId]);
      return base.tokens.revokeClient(clientId);
    },
  };
  // A replica keeps its faults in memory (the log replicates arming and uses): the list is a value.
  const noneArmed = () => {
    const armed = base.faults.list();
    return !(armed instanceof Promise) && armed.length === 0;
  };
  const faults = {
    ...base.faults,
    take(call: FaultCall) {
      // Nothing armed anywhere (the log would have told us): no round trip.
      if (isApplying() || noneArmed()) return base.faults.take(call);
      return log.submit<ReturnType<typeof base.faults.take>>('faults.take', [call], clock.now());
    },
    takeSignatureSkew(receiverId: string) {
      const ms = base.faults.takeSignatureSkew(receiverId);
      if (ms) share('faults.skew', [receiverId]);
      return ms;
    },
  };
  state.faults = faults as typeof state.faults;
  state.rateLimits = {
    ...base.rateLimits,
    configure(settings) {
      const configured = base.rateLimits.configure(settings);
      share('rateLimits.configure', [settings]);
      return configured;
    },
  };
  const ops: Record<string, (...args: never[]) => unknown> = {
    'tokens.put': (h: string, record: Parameters<typeof base.tokens.put>[1]) => base.tokens.put(h, record),
    'tokens.revoke': (h: string) => base.tokens.revokeHash(h),
    'tokens.revokeFamily': (family: string) => base.tokens.revokeFamily(family),
    'tokens.revokeClient': (clientId: string) => base.tokens.revokeClient(clientId),
    'faults.take': (call: FaultCall) => base.faults.take(call),
    'faults.skew': (receiverId: string) => base.faults.takeSignatureSkew(receiverId),
    'rateLimits.configure': (s: RateLimitSettings | false) => base.rateLimits.configure(s),
  };
  return { ops };
}
