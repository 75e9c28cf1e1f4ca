// The audit log of a tenant: an append-only list, oldest first, paged DRF-style (limit/offset with
// absolute next/previous URLs). Proof of integrity, in two layers:
//  - each entry carries `digest`, the SHA-256 (lowercase hex) of its canonical string CANONICAL below,
//    which includes the previous entry's digest (`prev_digest`; the first links to 64 zeros);
//  - every `checkpointEvery` entries a checkpoint signs the digest reached (HMAC-SHA256 with the
//    service's audit key), so a rewritten history cannot be re-chained without the key.
import { createHash, createHmac, randomBytes, randomUUID } from 'node:crypto';
import { API, type Clock } from './core.ts';

export const CANONICAL =
  '{id}|{sequence}|{created_at}|{actor}|{action}|{object_type}|{object_id}|{idempotency_key}|{summary}|{prev_digest}';
export const CHECKPOINT_STRING = 'walnut-checkpoint:v1|{tenant}|{sequence}|{digest}';
const GENESIS = '0'.repeat(64);

export interface AuditEntry {
  id: string;
  sequence: number;
  created_at: string;
  actor: string;
  action: string;
  object_type: string;
  object_id: string;
  idempotency_key: string;
  summary: string;
  prev_digest: string;
  digest: string;
}

interface Checkpoint {
  sequence: number;
  digest: string;
  signature: string;
  key_id: string;
  created_at: string;
}

export function canonicalString(e: Omit<AuditEntry, 'digest'>): string {
  return CANONICAL.replace(/\{(\w+)\}/g, (_, k: string) => String(e[k as keyof typeof e]));
}

export class AuditLog {
  entries = new Map<string, AuditEntry[]>();
  checkpoints = new Map<string, Checkpoint[]>();
  key = randomBytes(32);
  keyId = `audit-${randomBytes(4).toString('hex')}`;
  every: number;
  time: Clock;

  constructor(every: number, time: Clock) {
    this.every = every;
    this.time = time;
  }

  record(
    tenant: string,
    e: Pick<AuditEntry, 'actor' | 'action' | 'object_type' | 'object_id' | 'idempotency_key' | 'summary'>,
  ): void {
    const list = this.entries.get(tenant) ?? [];
    this.entries.set(tenant, list);
    const prev = list[list.length - 1];
    const base = {
      id: randomUUID(),
      sequence: list.length + 1,
      created_at: this.time(),
      ...e,
      prev_digest: prev?.digest ?? GENESIS,
    };
    const entry: AuditEntry = {
      ...base,
      digest: createHash('sha256').update(canonicalString(base), 'utf8').digest('hex'),
    };
    list.push(entry);
    if (entry.sequence % this.every === 0) {
      const signed = CHECKPOINT_STRING.replace('{tenant}', tenant)
        .replace('{sequence}', String(entry.sequence))
        .replace('{digest}', entry.digest);
      const cps = this.checkpoints.get(tenant) ?? [];
      this.checkpoints.set(tenant, cps);
      cps.push({
        sequence: entry.sequence,
        digest: entry.digest,
        signature: createHmac('sha256', this.key).update(signed).digest('hex'),
        key_id: this.keyId,
        created_at: entry.created_at,
      });
    }
  }

  /** One page with its proof: the checkpoints that cover the page and the head of the chain. */
  page(tenant: string, limit: number, offset: number, origin: string) {
    const list = this.entries.get(tenant) ?? [];
    const results = list.slice(offset, offset + limit);
    const link = (o: number) => `${origin}${API}/audit-log?limit=${limit}&offset=${o}`;
    const last = results[results.length - 1]?.sequence ?? 0;
    const first = results[0]?.sequence ?? 0;
    const head = list[list.length - 1];
    return {
      count: list.length,
      next: offset + limit < list.length ? link(offset + limit) : null,
      previous: offset > 0 ? link(Math.max(0, offset - limit)) : null,
      results,
      proof: {
        entry_digest: {
          algorithm: 'sha256',
          encoding: 'hex',
          field: 'digest',
          canonical_string: CANONICAL,
          chain_field: 'prev_digest',
          genesis: GENESIS,
        },
        checkpoint: {
          interval: this.every,
          algorithm: 'hmac-sha256',
          signed_string: CHECKPOINT_STRING,
          key_id: this.keyId,
        },
        checkpoints: (this.checkpoints.get(tenant) ?? []).filter(
          (c) => c.sequence >= first && c.sequence <= last + this.every,
        ),
        head: head ? { sequence: head.sequence, digest: head.digest } : null,
      },
    };
  }
}
