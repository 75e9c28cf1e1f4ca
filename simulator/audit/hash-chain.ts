import { AUDIT_DEFAULTS } from '../contract/simulator-defaults.ts';
import { createClock, type Clock } from '../lib/clock.ts';
import { RingBuffer } from '../lib/ring-buffer.ts';
import {
  GENESIS_HASH,
  hashAuditEntry,
  hashAuditFields,
  type AuditEntry,
  type AuditProof,
} from '../contract/audit-hash.ts';
import { CANONICALIZATION } from '../contract/canonical-json.ts';

export { GENESIS_HASH, hashAuditEntry, type AuditEntry, type AuditProof };

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

export interface AuditChain {
  readonly tenant: string;
  append(input: AuditRecordInput): AuditEntry;
  /** The newest entry's seq and hash (0 and GENESIS_HASH while empty). */
  head(): { seq: number; hash: string };
  /**
   * Newest first, at most `limit` (1..maxLimit, default defaultLimit), with the proof of the range.
   * `before`: only entries with a smaller seq (paging backwards: pass the previous page's fromSeq).
   */
  list(opts?: { limit?: number; before?: number }): { entries: AuditEntry[]; proof: AuditProof };
  /** Entries held (at most maxEntries; older ones are dropped). */
  size(): number;
  /** Puts back persisted entries (oldest first) after a restart; the chain continues from the last. */
  restore(entries: AuditEntry[]): void;
}

/**
 * One tenant's hash chain: append-only, each entry covering the previous hash; only the newest
 * `maxEntries` are kept, the proof's anchor keeps any returned range verifiable after trimming.
 * @example const chain = createAuditChain('harbour-kitchens'); chain.append({ requestId, actor, action, target });
 */
export function createAuditChain(tenant: string, opts: { maxEntries?: number; clock?: Clock } = {}): AuditChain {
  const clock = opts.clock ?? createClock();
  const entries = new RingBuffer<AuditEntry>(opts.maxEntries ?? AUDIT_DEFAULTS.maxEntriesPerTenant);
  let head = { seq: 0, hash: GENESIS_HASH };
  return {
    tenant,
    append(input) {
      for (const k of ['requestId', 'actor', 'action', 'target'] as const) {
        if (typeof input[k] !== 'string' || input[k].length === 0)
          throw new TypeError(`audit ${k} must be a non-empty string`);
      }
      // The entry is built once and hashed from its own fields (no body object copied into it).
      const seq = head.seq + 1;
      const at = input.at ?? new Date(clock.now()).toISOString();
      const prevHash = head.hash;
      const hash = hashAuditFields(seq, input.requestId, input.actor, input.action, input.target, at, tenant, prevHash);
      const entry: AuditEntry = Object.freeze({
        seq,
        requestId: input.requestId,
        actor: input.actor,
        action: input.action,
        target: input.target,
        at,
        tenant,
        prevHash,
        hash,
      });
      entries.push(entry);
      head = { seq, hash };
      return entry;
    },
    head: () => ({ ...head }),
    list({ limit = AUDIT_DEFAULTS.defaultLimit, before } = {}) {
      if (!Number.isSafeInteger(limit) || limit < 1 || limit > AUDIT_DEFAULTS.maxLimit)
        throw new RangeError(`limit must be an integer from 1 to ${AUDIT_DEFAULTS.maxLimit}, not ${limit}`);
      if (before !== undefined && (!Number.isSafeInteger(before) || before < 1))
        throw new RangeError(`before must be an integer of at least 1, not ${before}`);
      // Held entries have consecutive seqs, so the position of `before` is an index.
      const oldestSeq = entries.oldest()?.seq ?? head.seq + 1;
      const end = before === undefined ? entries.size : Math.min(entries.size, Math.max(0, before - oldestSeq));
      const range = entries.slice(Math.max(0, end - limit), end).reverse();
      const newest = range[0];
      const oldest = range[range.length - 1];
      // An empty page: the range that would follow entry end (below the oldest held, or past the head).
      const after = entries.at(end - 1);
      const proof: AuditProof = {
        algorithm: 'sha256',
        canonicalization: CANONICALIZATION,
        fromSeq: oldest?.seq ?? (after ? after.seq + 1 : oldestSeq),
        toSeq: newest?.seq ?? (after ? after.seq : oldestSeq - 1),
        anchorPrevHash: oldest?.prevHash ?? after?.hash ?? entries.oldest()?.prevHash ?? head.hash,
        headHash: newest?.hash ?? after?.hash ?? entries.oldest()?.prevHash ?? head.hash,
        chainHead: { ...head },
      };
      return { entries: range, proof };
    },
    size: () => entries.size,
    restore(list) {
      for (const e of list) {
        if (e.seq <= head.seq) continue;
        entries.push(Object.freeze({ ...e }));
        head = { seq: e.seq, hash: e.hash };
      }
    },
  };
}

/** Audit chains of every tenant, created on first use. */
export interface AuditLog {
  append(tenant: string, input: AuditRecordInput): AuditEntry;
  list(tenant: string, opts?: { limit?: number; before?: number }): { entries: AuditEntry[]; proof: AuditProof };
  head(tenant: string): { seq: number; hash: string };
  restore(tenant: string, entries: AuditEntry[]): void;
  clear(): void;
}

/** @example const audit = createAuditLog({ clock }); audit.append(tenant, { requestId, actor: clientId, action: 'connection.create', target: `connection:${id}` }); */
export function createAuditLog(opts: { maxEntriesPerTenant?: number; clock?: Clock } = {}): AuditLog {
  const chains = new Map<string, AuditChain>();
  const chain = (tenant: string) => {
    let c = chains.get(tenant);
    if (!c) {
      c = createAuditChain(tenant, {
        ...(opts.maxEntriesPerTenant ? { maxEntries: opts.maxEntriesPerTenant } : {}),
        ...(opts.clock ? { clock: opts.clock } : {}),
      });
      chains.set(tenant, c);
    }
    return c;
  };
  return {
    append: (tenant, input) => chain(tenant).append(input),
    list: (tenant, o) => chain(tenant).list(o),
    head: (tenant) => chains.get(tenant)?.head() ?? { seq: 0, hash: GENESIS_HASH },
    restore: (tenant, entries) => chain(tenant).restore(entries),
    clear: () => chains.clear(),
  };
}
