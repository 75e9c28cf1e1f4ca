// The audit log as a Merkle-chained journal per tenant: every entry's hash covers its content and the
// previous entry's hash (a chain), and every page served carries a Merkle root over its entries' hashes,
// signed with the service's Ed25519 key (the public key is served beside it). How to verify: README.md.
import { createHash, generateKeyPairSync, sign } from 'node:crypto';
import { canonical } from './http-kit.ts';

export interface AuditEntry {
  sequence: number;
  at: string;
  action: string;
  resourceType: string;
  resourceId: string;
  clientId: string;
  idempotencyKey?: string;
  prevHash: string;
  hash: string;
}

const GENESIS = '0'.repeat(64);
const sha256 = (s: string | Buffer) => createHash('sha256').update(s).digest('hex');

/** Pairs hashes level by level (sha256 of the two raw digests); an odd last node moves up unchanged. */
export function merkleRoot(hashes: string[]): string {
  if (hashes.length === 0) return GENESIS;
  let level = hashes;
  while (level.length > 1) {
    const next: string[] = [];
    for (let i = 0; i < level.length; i += 2) {
      const l = level[i] ?? '';
      const r = level[i + 1];
      next.push(r === undefined ? l : sha256(Buffer.concat([Buffer.from(l, 'hex'), Buffer.from(r, 'hex')])));
    }
    level = next;
  }
  return level[0] ?? GENESIS;
}

export function createAuditJournal() {
  const journals = new Map<string, AuditEntry[]>();
  const { publicKey, privateKey } = generateKeyPairSync('ed25519');
  const publicKeyPem = publicKey.export({ type: 'spki', format: 'pem' }).toString();
  const keyId = `sq-audit-${sha256(publicKeyPem).slice(0, 12)}`;

  return {
    append(tenant: string, e: Omit<AuditEntry, 'sequence' | 'at' | 'prevHash' | 'hash'>): void {
      const list = journals.get(tenant) ?? [];
      journals.set(tenant, list);
      const prevHash = list.at(-1)?.hash ?? GENESIS;
      const body = { ...e, sequence: list.length + 1, at: new Date().toISOString(), prevHash };
      list.push({ ...body, hash: sha256(canonical(body)) });
    },
    /** Newest first; `cursor` is the sequence to continue below (exclusive). */
    page(tenant: string, limit: number, cursor: number | undefined) {
      const list = journals.get(tenant) ?? [];
      const top = cursor === undefined ? list.length : Math.min(cursor - 1, list.length);
      const entries = list.slice(Math.max(0, top - limit), Math.max(0, top)).reverse();
      const last = entries.at(-1);
      const nextCursor = last && last.sequence > 1 ? String(last.sequence) : null;
      return { nextCursor, ...signedPage(tenant, list, entries) };
    },
    /** Oldest first; `after` is the last sequence read; the next page is offered while entries remain. */
    pageOldestFirst(tenant: string, limit: number, after: number) {
      const list = journals.get(tenant) ?? [];
      const entries = list.slice(after, after + limit);
      const nextAfter = after + limit < list.length ? after + limit : null;
      return { nextAfter, ...signedPage(tenant, list, entries) };
    },
  };

  function signedPage(tenant: string, list: AuditEntry[], entries: AuditEntry[]) {
    const last = entries.at(-1);
    const root = merkleRoot(entries.map((x) => x.hash));
    const firstSeq = entries[0]?.sequence ?? 0;
    const lastSeq = last?.sequence ?? 0;
    const signed = `${tenant}|${firstSeq}|${lastSeq}|${root}`;
    return {
      tenant,
      count: entries.length,
      entries,
      proof: {
        chain: 'sha256(canonical-json(entry without hash, with prevHash))',
        merkleRoot: root,
        leaves: 'entries[].hash, in the order listed',
        signedText: signed,
        signature: sign(null, Buffer.from(signed), privateKey).toString('base64'),
        signatureAlgorithm: 'Ed25519',
        keyId,
        publicKey: publicKeyPem,
        head: list.at(-1)?.hash ?? GENESIS,
      },
    };
  }
}

export type AuditJournal = ReturnType<typeof createAuditJournal>;
