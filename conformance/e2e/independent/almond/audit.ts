// The audit log: one hash chain per tenant (each entry's hash = sha256 hex of the RFC 8785 JSON of the entry
// without its hash, which holds the previous hash), and an Ed25519-signed checkpoint every N entries.
// GET /audit-log lists newest first, pages by ?cursor (the seq to read below), and shows the proof.
import { generateKeyPairSync, type KeyObject, sign } from 'node:crypto';
import type { Reply, RoutingContext } from './types.ts';
import { badRequest, canonicalJson, isoNow, sha256Hex, uuid } from './util.ts';

export interface AuditEntry {
  id: string;
  seq: number;
  tenantId: string;
  action: string;
  resourceType: string;
  resourceId: string;
  actor: string;
  requestId: string;
  at: string;
  prevHash: string;
  hash: string;
}

export interface Checkpoint {
  seq: number;
  hash: string;
  at: string;
  algorithm: 'Ed25519';
  publicKey: Record<string, unknown>;
  signature: string;
}

const GENESIS = '0'.repeat(64);

export class AuditLog {
  private readonly chains = new Map<string, AuditEntry[]>();
  private readonly checkpoints = new Map<string, Checkpoint>();
  private readonly privateKey: KeyObject;
  private readonly publicJwk: Record<string, unknown>;
  private readonly every: number;

  constructor(checkpointEvery: number) {
    const { privateKey, publicKey } = generateKeyPairSync('ed25519');
    this.privateKey = privateKey;
    this.publicJwk = publicKey.export({ format: 'jwk' }) as Record<string, unknown>;
    this.every = checkpointEvery;
  }

  record(
    tenantId: string,
    action: string,
    resource: { type: string; id: string },
    actor: string,
    requestId: string,
  ): AuditEntry {
    const chain = this.chains.get(tenantId) ?? [];
    this.chains.set(tenantId, chain);
    const prev = chain[chain.length - 1];
    const unsigned = {
      id: uuid(),
      seq: chain.length + 1,
      tenantId,
      action,
      resourceType: resource.type,
      resourceId: resource.id,
      actor,
      requestId,
      at: isoNow(),
      prevHash: prev?.hash ?? GENESIS,
    };
    const entry: AuditEntry = { ...unsigned, hash: sha256Hex(canonicalJson(unsigned)) };
    chain.push(entry);
    if (entry.seq % this.every === 0) {
      const signed = { at: entry.at, hash: entry.hash, seq: entry.seq };
      const signature = sign(null, Buffer.from(canonicalJson(signed)), this.privateKey).toString('base64url');
      this.checkpoints.set(tenantId, { ...signed, algorithm: 'Ed25519', publicKey: this.publicJwk, signature });
    }
    return entry;
  }

  /** GET /audit-log?limit=1..500 (default 50)&cursor=<seq>: newest first. */
  list(ctx: RoutingContext): Reply {
    const tenant = ctx.tenant as string;
    const limitRaw = ctx.query.get('limit');
    const limit = limitRaw === null ? 50 : Number(limitRaw);
    if (!/^\d+$/.test(limitRaw ?? '50') || limit < 1 || limit > 500)
      throw badRequest('Invalid query parameter limit: an integer between 1 and 500 is expected');
    const cursorRaw = ctx.query.get('cursor');
    if (cursorRaw !== null && !/^\d+$/.test(cursorRaw))
      throw badRequest('Invalid query parameter cursor: an integer, minimum 0, is expected');
    const chain = this.chains.get(tenant) ?? [];
    const below = cursorRaw === null ? chain.length + 1 : Number(cursorRaw);
    const entries = chain
      .filter((e) => e.seq < below)
      .reverse()
      .slice(0, limit);
    const last = entries[entries.length - 1];
    const head = chain[chain.length - 1];
    return {
      data: {
        tenant,
        count: entries.length,
        total: chain.length,
        order: 'newest-first',
        entries,
        nextCursor: last && last.seq > 1 ? String(last.seq) : null,
        proof: {
          type: 'sha256-hash-chain',
          entryHash: 'sha256 hex of the RFC 8785 JSON of the entry without hash',
          genesisHash: GENESIS,
          headSeq: head?.seq ?? 0,
          headHash: head?.hash ?? GENESIS,
          checkpointEvery: this.every,
          checkpoint: this.checkpoints.get(tenant) ?? null,
        },
      },
    };
  }
}
