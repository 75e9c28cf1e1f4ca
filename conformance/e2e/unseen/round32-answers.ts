import { generateKeyPairSync } from 'node:crypto';
import type { ProxyAnswer, ProxyCall, UnseenViolation } from './proxy.ts';
import { home, isCreate, P, refuse } from './proxy-helpers.ts';

/**
 * Round 32 of the unseen violations, part 1: answers — the third identical creation refused as a
 * conflict, a rate-limit bucket keyed by Service-Version, audit proofs whose signature is cached or
 * whose published key is not the signer's, an older key replaying the tenant's newest creation, pilot
 * creation times with a colon-less offset, venue names NFC-normalised, an unknown provider filter
 * answered with every connector, and a replay fingerprint that includes the token.
 */
type Rec = Record<string, any>;
const isAudit = (c: ProxyCall) => c.method === 'GET' && c.path === P('/audit-log');
const proofOf = (c: ProxyCall, a: ProxyAnswer) =>
  isAudit(c) && a.status === 200 ? (a.json.data?.proof as Rec | undefined) : undefined;

// A second Ed25519 key, as a signer that publishes the next key before it signs with it would.
const nextKey = generateKeyPairSync('ed25519').publicKey.export({ format: 'jwk' }) as Rec;

export const ROUND32_ANSWERS: UnseenViolation[] = [
  {
    name: 'third-identical-creation-conflicts',
    statement:
      'POST /api/public/v1/connections: Sending the same key with the same content returns the same response again (every time, not only once)',
    answer(c, a) {
      // The replay path rewrites the stored fingerprint with the replay's own (headers included), so
      // the next identical call no longer matches and is refused.
      if (!isCreate(c) || a.status !== 200 || a.json.meta?.replayed !== true) return;
      const slot = `replays:${c.headers['x-service-tenant'] ?? ''}:${c.headers['idempotency-key'] ?? ''}`;
      const n = ((c.memory.get(slot) as number | undefined) ?? 0) + 1;
      c.memory.set(slot, n);
      if (n >= 2) refuse(a, 409, 'idempotency_conflict', 'The idempotency key was used with different content.');
    },
  },
  {
    name: 'remaining-keyed-by-service-version',
    statement:
      'Limits: Rate limits are configured per access, per tenant and per environment; X-RateLimit-Remaining (calls left in the window) — not per Service-Version value',
    answer(c, a) {
      // The gateway's limiter key includes the Service-Version header: calls that send it count in a
      // bucket of their own and report its remaining calls.
      const left = a.headers['x-ratelimit-remaining'];
      const limit = Number(a.headers['x-ratelimit-limit']);
      if (left === undefined || !Number.isFinite(limit) || !c.headers['service-version']) return;
      const slot = `sv-bucket:${c.headers['x-service-tenant'] ?? ''}:${c.headers['service-version']}`;
      const used = ((c.memory.get(slot) as number | undefined) ?? 0) + 1;
      c.memory.set(slot, used);
      a.headers['x-ratelimit-remaining'] = String(Math.max(0, limit - used));
    },
  },
  {
    name: 'audit-proof-signature-cached-per-tenant',
    statement:
      'GET /api/public/v1/audit-log: Purpose: traceable changes of the tenant, including a proof of integrity (the proof binds the entries shown)',
    answer(c, a) {
      // Signing is slow, so the first signature of a tenant is cached and served with later pages
      // whose head has moved on: the signature no longer covers the head it is sent with.
      const proof = proofOf(c, a);
      if (!proof || typeof proof.signature !== 'string') return;
      const slot = `audit-sig:${c.headers['x-service-tenant'] ?? ''}`;
      const first = c.memory.get(slot) as string | undefined;
      if (first === undefined) return void c.memory.set(slot, proof.signature);
      proof.signature = first;
    },
  },
  {
    name: 'audit-proof-published-key-rotated-ahead',
    statement:
      'GET /api/public/v1/audit-log: … including a proof of integrity (the key the proof names is the one that signed it)',
    answer(c, a) {
      // Key rotation published the next public key while the signer still uses the current one.
      const proof = proofOf(c, a);
      if (!proof?.publicKeyJwk || typeof proof.publicKeyJwk !== 'object') return;
      proof.publicKeyJwk = { ...proof.publicKeyJwk, x: nextKey.x };
    },
  },
  {
    name: 'older-key-replays-newest-creation',
    statement:
      'POST /api/public/v1/connections: Sending the same key with the same content returns the same response again (the response of that key)',
    answer(c, a) {
      // The replay lookup reads "the tenant's last stored response" instead of the one stored under the key.
      if (!isCreate(c) || a.status !== 200 || !a.json.data) return;
      const slot = `newest:${c.headers['x-service-tenant'] ?? ''}`;
      if (a.json.meta?.replayed !== true) return void c.memory.set(slot, structuredClone(a.json.data));
      const newest = c.memory.get(slot) as Rec | undefined;
      if (newest && newest.id !== a.json.data.id) a.json.data = structuredClone(newest);
    },
  },
  {
    name: 'pilot-created-at-offset-without-colon',
    statement:
      'Connection: createdAt | string, date-time (for a pilot connection too: an RFC 3339 offset is written +hh:mm)',
    answer(c, a) {
      // The pilot region's formatter uses strftime's %z, which writes the offset as +0000.
      const fix = (x: Rec) => {
        if (x?.environment === 'pilot' && typeof x.createdAt === 'string' && x.createdAt.endsWith('Z'))
          x.createdAt = `${x.createdAt.slice(0, -1)}+0000`;
      };
      if (a.status !== 200 || !a.json.data) return;
      if (isCreate(c)) fix(a.json.data);
      if (c.method === 'GET' && c.path === P('/connections')) for (const x of a.json.data.connections ?? []) fix(x);
    },
  },
  {
    name: 'scope-label-normalized-to-nfc',
    statement:
      'Connection: scopeLabel | string | descriptive name (the label sent is the label stored, its characters unchanged)',
    answer(c, a) {
      // The venue name is NFC-normalised on its way into the database: a decomposed "é" comes back composed.
      const fix = (x: Rec) => {
        if (typeof x?.scopeLabel === 'string') x.scopeLabel = x.scopeLabel.normalize('NFC');
      };
      if (a.status !== 200 || !a.json.data) return;
      if (isCreate(c)) fix(a.json.data);
      if (c.method === 'GET' && c.path === P('/connections')) for (const x of a.json.data.connections ?? []) fix(x);
    },
  },
  {
    name: 'unknown-provider-filter-returns-all',
    statement:
      'GET /api/public/v1/connectors: providerId | string | no — restricts the list (a provider with no connectors gives an empty list, not every connector)',
    answer(c, a) {
      // An empty result falls back to the unfiltered list ("show something rather than nothing").
      if (c.method !== 'GET' || c.path !== P('/connectors') || a.status !== 200) return;
      const list = a.json.data?.connectors as Rec[] | undefined;
      if (!Array.isArray(list)) return;
      if (![...c.search.keys()].length) return void c.memory.set('all-connectors', list);
      const all = c.memory.get('all-connectors') as Rec[] | undefined;
      if (!all || list.length || !c.search.get('providerId') || [...c.search.keys()].length !== 1) return;
      a.json.data.connectors = all;
      a.json.data.count = all.length;
    },
  },
  {
    name: 'replay-fingerprint-includes-token',
    statement:
      'POST /api/public/v1/connections: Sending the same key with the same content returns the same response again (Tokens are short-lived and are renewed: a renewed token is the same access)',
    answer(c, a) {
      // The stored fingerprint hashes the Authorization header with the body; after a token renewal the
      // repeat no longer matches and is refused.
      if (!isCreate(c) || a.status !== 200) return;
      const slot = `fp-token:${c.headers['x-service-tenant'] ?? ''}:${c.headers['idempotency-key'] ?? ''}`;
      const token = c.headers.authorization ?? '';
      if (a.json.meta?.replayed !== true) return void c.memory.set(slot, token);
      const first = c.memory.get(slot);
      if (typeof first === 'string' && first !== token)
        refuse(a, 409, 'idempotency_conflict', 'The idempotency key was used with different content.');
    },
  },
];
