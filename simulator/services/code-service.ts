import type { Clock } from '../lib/clock.ts';
import { newId } from '../lib/ids.ts';
import type { AuthorizationCode, AuthorizationCodeRepository } from '../state/ports/authorization-codes.ts';
import { andThen, type MaybePromise } from '../state/ports/maybe-promise.ts';
import { hashToken } from './secret-hash.ts';

export type { AuthorizationCode };

/** A presented code judged on the sandbox clock. */
export type CodeLookup =
  | { kind: 'fresh'; code: AuthorizationCode }
  | { kind: 'redeemed'; code: AuthorizationCode }
  | { kind: 'expired' }
  | { kind: 'unknown' };

/** Used codes are remembered this long past expiry so a replay is recognised and its grant revoked. */
const REPLAY_MEMORY_MS = 10 * 60_000;
/** Codes kept at most (a flood of unredeemed ones drops the oldest). */
export const MAX_CODES = 20_000;

/**
 * Authorization codes and their rules over a repository port: unguessable, kept only by hash, valid
 * `ttlSeconds` (60) on the sandbox clock, single use (a used code only serves to detect a replay),
 * memory bounded. Each method answers at once when the repository does (memory).
 * @example const code = codes.issue({ ...grant }); codes.find(code).kind === 'fresh';
 */
export interface CodeService {
  issue(grant: Omit<AuthorizationCode, 'expiresAt' | 'used' | 'grant'>): MaybePromise<string>;
  find(code: string): MaybePromise<CodeLookup>;
  /** Marks the code used (with the grant it produced, if any); from now on it only serves to detect a replay. */
  redeem(code: string, grant?: string): MaybePromise<void>;
  /** Keeps a code issued on another replica (shared sandbox), by its hash. */
  put(codeHash: string, record: AuthorizationCode): MaybePromise<void>;
  /** `redeem` by the code's hash (a redemption made on another replica). */
  redeemHash(codeHash: string, grant?: string): MaybePromise<void>;
  clear(): MaybePromise<void>;
}

export interface CodeServiceDeps {
  repository: AuthorizationCodeRepository;
  clock: Clock;
  /** Lifetime of a code (default 60 s). */
  ttlSeconds?: number;
}

/** @example const codes = createCodeService({ repository: createCodeStore(), clock }); */
export function createCodeService(deps: CodeServiceDeps): CodeService {
  const { repository: repo, clock } = deps;
  const ttlMs = (deps.ttlSeconds ?? 60) * 1000;
  // Past the cap: the codes long expired go, and if it is still full, the oldest.
  const sweep = () =>
    andThen(repo.removeExpiredBefore(clock.now() - REPLAY_MEMORY_MS), () => repo.trimTo(MAX_CODES - 1));
  return {
    issue(grant) {
      return andThen(
        andThen(repo.size(), (n) => (n >= MAX_CODES ? sweep() : undefined)),
        () => {
          const code = newId('ncs_ac', 32);
          return andThen(repo.insert(hashToken(code), { ...grant, expiresAt: clock.now() + ttlMs }), () => code);
        },
      );
    },
    find: (code) =>
      andThen(repo.find(hashToken(code)), (rec): CodeLookup => {
        if (!rec) return { kind: 'unknown' };
        if (rec.used) return { kind: 'redeemed', code: rec };
        if (rec.expiresAt <= clock.now()) return { kind: 'expired' };
        return { kind: 'fresh', code: rec };
      }),
    redeem: (code, grant) => repo.markUsed(hashToken(code), grant),
    put: (hash, record) => andThen(repo.insert(hash, { ...record }), () => undefined),
    redeemHash: (hash, grant) => repo.markUsed(hash, grant),
    clear: () => repo.clear(),
  };
}
