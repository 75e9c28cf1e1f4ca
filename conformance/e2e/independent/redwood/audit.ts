// The tenant's audit log: hash-chained entries (sha256 over the previous hash, a newline and the entry's
// canonical JSON without its hash) and a signed checkpoint as the proof of integrity: Ed25519 over the
// newest entry's chained hash (its 64 hex characters as ASCII). The public key is in the self-description.
import { createHash, generateKeyPairSync, sign } from 'node:crypto';
import type { Access } from './auth.ts';
import { type Ctx, canonical, invalid, newId, pageSize } from './http-util.ts';

interface Entry {
  id: string;
  sequence: number;
  time: string;
  actor: string;
  action: string;
  resource: string;
  requestId: string;
  idempotencyKey?: string;
  previousHash: string;
  hash: string;
}

const GENESIS = '0'.repeat(64);

export function createAudit(newestFirst: boolean, aipNames = false) {
  const { publicKey, privateKey } = generateKeyPairSync('ed25519');
  const jwk = publicKey.export({ format: 'jwk' });
  const keyId = `auditkey_${createHash('sha256').update(String(jwk.x)).digest('hex').slice(0, 16)}`;
  const chains = new Map<string, Entry[]>();

  function record(ctx: Ctx, access: Access, action: string, resource: string): void {
    let chain = chains.get(access.tenant);
    if (!chain) {
      chain = [];
      chains.set(access.tenant, chain);
    }
    const previousHash = chain.at(-1)?.hash ?? GENESIS;
    const entry: Omit<Entry, 'hash'> = {
      id: newId('aud'),
      sequence: chain.length + 1,
      time: new Date().toISOString(),
      actor: `clients/${access.clientId}`,
      action,
      resource,
      requestId: ctx.requestId,
      idempotencyKey: ctx.idempotencyKey,
      previousHash,
    };
    const hash = createHash('sha256')
      .update(`${previousHash}\n${canonical(entry)}`)
      .digest('hex');
    chain.push({ ...entry, hash });
  }

  /** GET /audit-log?limit=&pageToken=: oldest first by default (AIP list order by create time). */
  function list(access: Access, q: URLSearchParams) {
    const limit = pageSize(q.get('limit') ?? q.get('pageSize'), 'limit');
    const token = q.get('pageToken');
    const start = token ? Number(Buffer.from(token, 'base64url').toString()) : 0;
    if (!Number.isInteger(start) || start < 0) throw invalid('pageToken: not a token of this list');
    const chain = chains.get(access.tenant) ?? [];
    const ordered = newestFirst ? [...chain].reverse() : chain;
    const entries = ordered.slice(start, start + limit);
    const head = chain.at(-1);
    return {
      tenant: access.tenant,
      order: newestFirst ? 'sequence desc' : 'sequence asc',
      count: entries.length,
      totalSize: chain.length,
      ...(aipNames ? { auditEntries: entries } : { entries }),
      nextPageToken: start + limit < ordered.length ? Buffer.from(String(start + limit)).toString('base64url') : '',
      checkpoint: head
        ? {
            sequence: head.sequence,
            hash: head.hash,
            time: new Date().toISOString(),
            algorithm: 'Ed25519',
            keyId,
            signedContent:
              'the ASCII bytes of hash (sha256 chain: previousHash + "\\n" + canonical entry without hash)',
            signature: sign(null, Buffer.from(head.hash), privateKey).toString('base64'),
          }
        : null,
    };
  }

  const publicInfo = {
    algorithm: 'Ed25519',
    keyId,
    publicKeyPem: publicKey.export({ format: 'pem', type: 'spki' }).toString(),
    publicKeyJwk: { ...jwk, kid: keyId, use: 'sig', alg: 'EdDSA' },
    chain: 'sha256(previousHash + "\\n" + canonical JSON of the entry without hash), genesis 64 zeros',
  };

  return { record, list, publicInfo };
}
