import { type AuditEntry, type AuditProof, GENESIS_HASH, hashAuditFields } from '../contract/audit-hash.ts';
import { type AuditVerifyResult, verifyAuditRange } from '../contract/audit-verify.ts';
import { CANONICALIZATION } from '../contract/canonical-json.ts';
import { AUDIT_DEFAULTS } from '../contract/simulator-defaults.ts';
import type { Clock } from '../lib/clock.ts';
import type { AuditRepository, AuditWindow } from '../state/ports/audit.ts';
import { andThen, type MaybePromise } from '../state/ports/maybe-promise.ts';
import type { AuditSigner } from './audit-signer.ts';

export { type AuditEntry, type AuditProof, GENESIS_HASH };

/** What a handler records: who (client) did what to which target, under which request. */
export interface AuditRecordInput {
  requestId: string;
  /** The acting client id. */
  actor: string;
  /** e.g. connection.create */
  action: string;
  /** e.g. connection:con_123 */
  target: string;
  /** ISO 8601; default: the clock's now. */
  at?: string;
}

/** A page of a chain, newest first, with the proof that lets anyone recompute it. */
export interface AuditPage {
  entries: AuditEntry[];
  proof: AuditProof;
}

/**
 * Every tenant's audit chain: entries numbered from 1, each hashed (sha256 over its RFC 8785 canonical
 * JSON) together with the previous entry's hash; the head; pages newest first with the proof of their
 * range; verification of a range. Only the newest `maxEntries` per tenant are kept; a proof's anchor
 * keeps any returned range verifiable after that. Answers at once when the repository does (memory).
 * @example const e = await audit.append('harbour-kitchens', { requestId, actor: clientId, action: 'connection.create', target: `connection:${id}` });
 */
export interface AuditService {
  append(tenant: string, input: AuditRecordInput): MaybePromise<AuditEntry>;
  /** The newest entry's seq and hash (0 and GENESIS_HASH while empty). */
  head(tenant: string): MaybePromise<{ seq: number; hash: string }>;
  /**
   * Newest first, at most `limit` (1..maxLimit, default defaultLimit), with the proof of the range.
   * `before`: only entries with a smaller seq (paging backwards: pass the previous page's fromSeq).
   * @throws RangeError for a limit or before out of range.
   */
  list(tenant: string, opts?: { limit?: number; before?: number }): MaybePromise<AuditPage>;
  /**
   * Recomputes a range of the held chain against its proof: the entries below `before` (default: up to
   * the head), at most `limit` (default: every held one); no page limit applies.
   */
  verify(tenant: string, opts?: { limit?: number; before?: number }): MaybePromise<AuditVerifyResult>;
  /** Entries held for the tenant (at most maxEntries). */
  size(tenant: string): MaybePromise<number>;
  clear(): MaybePromise<void>;
}

const FIELDS = ['requestId', 'actor', 'action', 'target'] as const;

/**
 * The proof of a page: its ends, the hash it hangs from and the head of the whole chain. An empty page
 * is the empty range below the oldest entry held (fromSeq = toSeq + 1, anchored where that entry hangs).
 */
function proofOf(range: AuditEntry[], w: AuditWindow): AuditProof {
  const newest = range[0];
  const oldest = range[range.length - 1];
  const chainHead = w.newest ? { seq: w.newest.seq, hash: w.newest.hash } : { seq: 0, hash: GENESIS_HASH };
  const oldestSeq = w.oldest?.seq ?? chainHead.seq + 1;
  const anchor = w.oldest?.prevHash ?? chainHead.hash;
  return {
    algorithm: 'sha256',
    canonicalization: CANONICALIZATION,
    fromSeq: oldest?.seq ?? oldestSeq,
    toSeq: newest?.seq ?? oldestSeq - 1,
    anchorPrevHash: oldest?.prevHash ?? anchor,
    headHash: newest?.hash ?? anchor,
    chainHead,
  };
}

/** @example const audit = createAuditService({ repository: createAuditStore(), clock }); */
export function createAuditService(deps: {
  repository: AuditRepository;
  clock: Clock;
  /** Entries kept per tenant (default AUDIT_DEFAULTS.maxEntriesPerTenant). */
  maxEntries?: number;
  /** Signs each listed page's proof (audit-signer.ts); unsigned without. */
  sign?: AuditSigner;
}): AuditService {
  const { repository: repo, clock } = deps;
  const keep = deps.maxEntries ?? AUDIT_DEFAULTS.maxEntriesPerTenant;

  /** The entry after `head`, built once and hashed from its own fields (no body object copied into it). */
  const chainAfter = (tenant: string, head: AuditEntry | undefined, input: AuditRecordInput, at: string) => {
    const seq = (head?.seq ?? 0) + 1;
    const prevHash = head?.hash ?? GENESIS_HASH;
    const { requestId, actor, action, target } = input;
    const hash = hashAuditFields(seq, requestId, actor, action, target, at, tenant, prevHash);
    const entry: AuditEntry = Object.freeze({ seq, requestId, actor, action, target, at, tenant, prevHash, hash });
    const kept = repo.append(tenant, entry, keep);
    if (kept instanceof Promise) return kept.then((ok) => (ok ? entry : appendAt(tenant, input, at)));
    return kept ? entry : appendAt(tenant, input, at);
  };
  // Each entry hangs from the head it was built on; one that lost its place to another writer (a
  // repository shared across writers or answering later) is built again on the new head.
  const appendAt = (tenant: string, input: AuditRecordInput, at: string): MaybePromise<AuditEntry> => {
    const head = repo.newest(tenant);
    return head instanceof Promise
      ? head.then((h) => chainAfter(tenant, h, input, at))
      : chainAfter(tenant, head, input, at);
  };
  const list: AuditService['list'] = (tenant, { limit = AUDIT_DEFAULTS.defaultLimit, before } = {}) => {
    if (!Number.isSafeInteger(limit) || limit < 1 || limit > AUDIT_DEFAULTS.maxLimit)
      throw new RangeError(`limit must be an integer from 1 to ${AUDIT_DEFAULTS.maxLimit}, not ${limit}`);
    if (before !== undefined && (!Number.isSafeInteger(before) || before < 1))
      throw new RangeError(`before must be an integer of at least 1, not ${before}`);
    return andThen(repo.window(tenant, before, limit), (w) => {
      const range = w.entries.reverse();
      const proof = proofOf(range, w);
      return { entries: range, proof: deps.sign ? deps.sign(proof) : proof };
    });
  };

  return {
    append(tenant, input) {
      for (const k of FIELDS) {
        if (typeof input[k] !== 'string' || input[k].length === 0)
          throw new TypeError(`audit ${k} must be a non-empty string`);
      }
      return appendAt(tenant, input, input.at ?? new Date(clock.now()).toISOString());
    },
    head: (tenant) =>
      andThen(repo.newest(tenant), (h) => (h ? { seq: h.seq, hash: h.hash } : { seq: 0, hash: GENESIS_HASH })),
    list,
    verify(tenant, { limit, before } = {}) {
      return andThen(limit ?? repo.size(tenant), (n) =>
        andThen(repo.window(tenant, before, Math.max(1, n)), (w) => {
          const range = w.entries.reverse();
          return verifyAuditRange(range, proofOf(range, w));
        }),
      );
    },
    size: (tenant) => repo.size(tenant),
    clear: () => repo.clear(),
  };
}
