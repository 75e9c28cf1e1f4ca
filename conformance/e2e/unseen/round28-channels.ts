import { createHmac } from 'node:crypto';
import { hashAuditEntry } from '../../../simulator/contract/audit-hash.ts';
import type { ProxyAnswer, ProxyCall, UnseenViolation } from './proxy.ts';
import { isCreate, P } from './proxy-helpers.ts';

/**
 * Round 28 of the unseen violations, part 4: the audit log and webhook signatures — creations audited
 * with the idempotency key as target (the chain rehashed, so it verifies), a proof anchored at the
 * oldest entry's own hash, a chain head numbered by a global counter, and MACs keyed with a key cut to
 * 32 characters, computed twice, or keyed with the tenant identifier.
 */
type Rec = Record<string, any>;
const tenantOf = (c: ProxyCall) => c.headers['x-service-tenant'] ?? '';
const isAudit = (c: ProxyCall, a: ProxyAnswer) => c.method === 'GET' && c.path === P('/audit-log') && a.status === 200;
const mac = (key: string, text: string) => createHmac('sha256', key).update(text, 'utf8').digest('hex');

/**
 * Re-chains a page after `edit` changed entries, as a deployment that wrote those values would have:
 * hashes are recomputed from the rewritten predecessor (remembered per tenant across pages).
 */
function rechain(c: ProxyCall, data: Rec, edit: (e: Rec) => void) {
  const entries = data.entries as Rec[];
  const hashes = (c.memory.get(`r28-chain:${tenantOf(c)}`) as Map<number, string> | undefined) ?? new Map();
  c.memory.set(`r28-chain:${tenantOf(c)}`, hashes);
  const sorted = [...entries].sort((x, y) => x.seq - y.seq);
  for (const e of sorted) {
    edit(e);
    e.prevHash = hashes.get(e.seq - 1) ?? e.prevHash;
    const { hash: _old, ...fields } = e;
    e.hash = hashAuditEntry(fields as Parameters<typeof hashAuditEntry>[0]);
    hashes.set(e.seq, e.hash);
  }
  const proof = data.proof as Rec | undefined;
  const oldest = sorted[0];
  const newest = sorted[sorted.length - 1];
  if (!proof || !oldest || !newest) return;
  proof.anchorPrevHash = oldest.prevHash;
  proof.headHash = newest.hash;
  const head = proof.chainHead as Rec | undefined;
  if (head && hashes.has(head.seq)) head.hash = hashes.get(head.seq);
}

export const ROUND28_CHANNELS: UnseenViolation[] = [
  {
    name: 'audit-creation-target-is-idempotency-key',
    statement:
      'GET /api/public/v1/audit-log: Purpose: traceable changes of the tenant, including a proof of integrity (a created connection is traceable)',
    answer(c, a) {
      // The audit writer runs in the idempotency middleware, before the handler has an id, and names
      // the key as the target of connection creations; the chain is hashed over what was written.
      if (isCreate(c) && a.status === 200 && a.json.meta?.requestId && c.headers['idempotency-key'])
        c.memory.set(`r28-key:${a.json.meta.requestId}`, c.headers['idempotency-key']);
      if (!isAudit(c, a) || !Array.isArray(a.json.data?.entries)) return;
      rechain(c, a.json.data, (e) => {
        const key = c.memory.get(`r28-key:${e.requestId}`);
        if (typeof key === 'string' && String(e.target).startsWith('connection:')) e.target = `idempotency-key:${key}`;
      });
    },
  },
  {
    name: 'audit-proof-anchor-is-oldest-own-hash',
    statement:
      'GET /api/public/v1/audit-log: including a proof of integrity (the returned range hangs from the entry before it)',
    answer(c, a) {
      // The proof builder takes "hash" where it meant "prevHash" of the oldest returned entry.
      if (!isAudit(c, a)) return;
      const entries = a.json.data?.entries as Rec[] | undefined;
      const proof = a.json.data?.proof as Rec | undefined;
      if (!Array.isArray(entries) || !entries.length || !proof) return;
      const oldest = entries.reduce((x, y) => (y.seq < x.seq ? y : x));
      proof.anchorPrevHash = oldest.hash;
    },
  },
  {
    name: 'audit-chain-head-seq-global',
    statement:
      'GET /api/public/v1/audit-log: traceable changes of the tenant, including a proof of integrity (the chain head)',
    answer(c, a) {
      // The head's number is read from the global sequence shared by all tenants (other tenants'
      // writes included), while its hash is this tenant's newest entry.
      if (!isAudit(c, a)) return;
      const head = a.json.data?.proof?.chainHead as Rec | undefined;
      if (head && typeof head.seq === 'number' && head.seq > 0) head.seq += 17;
    },
  },
  {
    name: 'signature-keyed-with-key-cut-to-32',
    statement: 'Webhooks: The signature is an HMAC with SHA-256, keyed with the signing key',
    sign(body, secret, t) {
      // The HMAC helper copies the key into a fixed 32-byte buffer (the SHA-256 output size).
      return `t=${t},v1=${mac(secret.slice(0, 32), `${t}.${body}`)}`;
    },
  },
  {
    name: 'signature-hmac-applied-twice',
    statement:
      'Webhooks: The signature is an HMAC with SHA-256, keyed with the signing key, over the text <t>, a dot, and the unchanged raw request body, written as lowercase hex',
    sign(body, secret, t) {
      // A wrapper signs the hex MAC returned by an inner helper that already signed the text.
      return `t=${t},v1=${mac(secret, mac(secret, `${t}.${body}`))}`;
    },
  },
  {
    name: 'signature-keyed-with-tenant-id',
    statement: 'Webhooks: The signature is an HMAC with SHA-256, keyed with the signing key',
    sign(body, secret, t) {
      // The signer looks the key up by tenant and, on a cache miss, falls back to the lookup key itself.
      let tenant = '';
      try {
        tenant = String((JSON.parse(body) as Rec).tenant ?? '');
      } catch {
        tenant = '';
      }
      return `t=${t},v1=${mac(tenant || secret, `${t}.${body}`)}`;
    },
  },
];
