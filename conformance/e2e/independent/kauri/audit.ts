// The audit log: per tenant a hash chain (hash = sha256 hex of "prevHash|seq|action|resourceId|at"), anchored by
// a daily root: the head hash of the day signed RS256 (PKCS#1 v1.5, base64url) with a key shown as a JWK.
import { createHash, createSign, generateKeyPairSync, type KeyObject } from 'node:crypto';
import { isoNow } from './exchange.ts';

export interface AuditEntry {
  seq: number;
  exchangeId: string;
  action: string;
  resourceId: string;
  clientId: string;
  at: string;
  prevHash: string;
  hash: string;
}

const GENESIS = '0'.repeat(64);

export class AuditLog {
  private readonly chains = new Map<string, AuditEntry[]>();
  private readonly privateKey: KeyObject;
  readonly jwk: object;

  constructor() {
    const pair = generateKeyPairSync('rsa', { modulusLength: 2048 });
    this.privateKey = pair.privateKey;
    this.jwk = {
      ...pair.publicKey.export({ format: 'jwk' }),
      alg: 'RS256',
      use: 'sig',
      kid: 'kauri-audit-root',
    };
  }

  static hashOf(e: Omit<AuditEntry, 'hash' | 'exchangeId' | 'clientId'>): string {
    return createHash('sha256').update(`${e.prevHash}|${e.seq}|${e.action}|${e.resourceId}|${e.at}`).digest('hex');
  }

  append(tenant: string, exchangeId: string, clientId: string, action: string, resourceId: string): AuditEntry {
    let chain = this.chains.get(tenant);
    if (!chain) {
      chain = [];
      this.chains.set(tenant, chain);
    }
    const prev = chain[chain.length - 1];
    const base = { seq: chain.length + 1, action, resourceId, at: isoNow(), prevHash: prev?.hash ?? GENESIS };
    const entry: AuditEntry = { ...base, exchangeId, clientId, hash: AuditLog.hashOf(base) };
    chain.push(entry);
    return entry;
  }

  /** The latest `limit` entries, oldest first, and the proof: head plus the signed daily root. */
  page(tenant: string, limit: number) {
    const chain = this.chains.get(tenant) ?? [];
    const entries = chain.slice(Math.max(0, chain.length - limit));
    const head = chain[chain.length - 1];
    const day = isoNow().slice(0, 10);
    const rootHash = head?.hash ?? GENESIS;
    const headSeq = head?.seq ?? 0;
    const signature = createSign('RSA-SHA256')
      .update(`${day}|${rootHash}|${headSeq}`)
      .sign(this.privateKey)
      .toString('base64url');
    return {
      tenant,
      count: entries.length,
      total: chain.length,
      entries,
      proof: {
        type: 'hash-chain',
        algorithm: 'sha256',
        entryHash: 'hex(sha256(prevHash|seq|action|resourceId|at))',
        genesis: GENESIS,
        anchor: { day, rootHash, headSeq, alg: 'RS256', signedText: 'day|rootHash|headSeq', signature, jwk: this.jwk },
      },
    };
  }
}
