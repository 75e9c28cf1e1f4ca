import { randomBytes, randomUUID } from 'node:crypto';
import type { ProxyAnswer, ProxyCall, UnseenViolation } from './proxy.ts';
import { isCreate, P } from './proxy-helpers.ts';

/**
 * Round 14 of the unseen violations, part 2: what a deployment is sent and keeps — an empty
 * Idempotency-Key taken as a fresh key, a check's default environment taken from the last call naming one, a JSON array
 * body read as its first element, short operations issued keys below the pattern's minimum, each base
 * address listing only the connections created through it, and a replay fingerprint that includes the
 * Service-Version header.
 */
type Rec = Record<string, any>;
const isCheck = (c: ProxyCall) => c.method === 'POST' && c.path === P('/capabilities');
const ENVIRONMENTS = new Set(['development', 'sandbox', 'pilot', 'production']);
const ok = (a: ProxyAnswer) => a.status === 200 && a.json.ok === true;
const body = (c: ProxyCall) =>
  c.body && typeof c.body === 'object' && !Array.isArray(c.body) ? (c.body as Rec) : undefined;

export const ROUND14_INPUTS: UnseenViolation[] = [
  {
    name: 'empty-idempotency-key-accepted',
    statement:
      'Limits: Idempotency-Key | pattern ^[A-Za-z0-9._:-]{8,128}$ (POST /connections: Header Idempotency-Key is required)',
    request(c) {
      // The middleware checks only that the header is present; an empty value gets a generated key.
      const key = c.headers['idempotency-key'];
      if (c.method === 'POST' && key !== undefined && key.trim() === '')
        c.headers['idempotency-key'] = `auto-${randomUUID()}`;
      return undefined;
    },
  },
  {
    name: 'check-default-environment-follows-last-named',
    statement: 'POST /api/public/v1/capabilities: environment | string | no | Environment; default sandbox',
    request(c) {
      // The tenant's "working environment" is remembered from its last call that named one and used as the default.
      const slot = `r14-env:${c.headers['x-service-tenant']}`;
      const b = body(c);
      if (!b || !(isCheck(c) || isCreate(c))) return undefined;
      const last = c.memory.get(slot) as string | undefined;
      if (typeof b.environment === 'string' && ENVIRONMENTS.has(b.environment)) c.memory.set(slot, b.environment);
      else if (isCheck(c) && b.environment === undefined && last && last !== 'sandbox')
        c.body = { ...b, environment: last };
      return undefined;
    },
  },
  {
    name: 'json-array-body-read-as-first-element',
    statement:
      'POST /api/public/v1/capabilities: Body (JSON): connectorId | string | yes … (invalid_request: wrong data type)',
    request(c) {
      // A batch-tolerant body parser unwraps a one-element (or longer) array and handles its first object.
      if ((isCheck(c) || isCreate(c)) && Array.isArray(c.body)) {
        const first = c.body[0];
        c.body = first && typeof first === 'object' ? first : {};
      }
      return undefined;
    },
  },
  {
    name: 'short-operation-issues-short-key',
    statement:
      'Limits: Idempotency-Key | pattern ^[A-Za-z0-9._:-]{8,128}$ (POST /idempotency-keys: data: idempotencyKey)',
    answer(c, a) {
      // Short operations get readable keys "<operation>-<4 hex>"; a two-character operation yields 7 characters.
      if (c.method !== 'POST' || c.path !== P('/idempotency-keys') || !ok(a) || !a.json.data) return;
      const op = String(a.json.data.operation ?? '');
      if (op.length >= 2 && op.length <= 3) a.json.data.idempotencyKey = `${op}-${randomBytes(2).toString('hex')}`;
    },
  },
  {
    name: 'each-address-lists-its-own-creations',
    statement:
      'The same interface is also offered under a second main-domain address {alt_base_url} (GET /connections: connections of the tenant)',
    answer(c, a) {
      // Each address is served by its own region, and the connection list reads the regional replica only.
      if (isCreate(c) && ok(a) && typeof a.json.data?.id === 'string')
        c.memory.set(`r14-made:${a.json.data.id}`, c.base);
      if (c.method !== 'GET' || c.path !== P('/connections') || !ok(a)) return;
      const list = (a.json.data?.connections ?? []) as Rec[];
      const kept = list.filter((x) => {
        const made = c.memory.get(`r14-made:${x.id}`);
        return made === undefined || made === c.base;
      });
      if (kept.length === list.length) return;
      a.json.data.connections = kept;
      a.json.data.count = kept.length;
    },
  },
  {
    name: 'replay-fingerprint-includes-service-version',
    statement:
      'POST /api/public/v1/connections: Sending the same key with the same content returns the same response again',
    request(c) {
      // The request fingerprint hashes the body together with the Service-Version header.
      const key = c.headers['idempotency-key'];
      if (!isCreate(c) || !key) return undefined;
      const version = c.headers['service-version'] ?? '';
      const slot = `r14-sv:${c.headers['x-service-tenant']}|${key}`;
      const first = c.memory.get(slot) as string | undefined;
      if (first === undefined) {
        c.memory.set(slot, version);
        return undefined;
      }
      if (first === version) return undefined;
      return {
        status: 409,
        headers: { 'content-type': 'application/json; charset=utf-8' },
        json: {
          ok: false,
          error: {
            code: 'idempotency_conflict',
            message: 'The idempotency key was used with different content.',
            hint: 'Use a new key for each new operation.',
          },
          meta: {
            requestId: `req_${randomBytes(8).toString('hex')}`,
            version: version === '2026-06-12' ? version : '2026-07-01',
            at: new Date().toISOString(),
            idempotencyKey: key,
          },
        },
      };
    },
  },
];
