import { SUPPORTED_VERSIONS } from '../../../simulator/contract/versions.ts';
import type { ProxyCall, UnseenViolation } from './proxy.ts';
import { home, isCreate, P } from './proxy-helpers.ts';

/**
 * Round 3 of the unseen violations, part 1: a deployment that gets what it is SENT subtly wrong (byte
 * lengths, later list items, key spelling, earlier versions, the alternate base URL, a conflict that
 * looks at some fields only, a foreign tenant on writes). Each rewrites the request so that the
 * simulator's own answer, headers and all, is what the kit sees.
 */
const body = (c: ProxyCall) =>
  c.body && typeof c.body === 'object' && !Array.isArray(c.body) ? (c.body as Record<string, unknown>) : undefined;

/** The key each call sent, before a hook changed it. */
const sentKeys = new WeakMap<ProxyCall, string>();

export const ROUND3_REQUESTS: UnseenViolation[] = [
  {
    name: 'scope-label-length-in-bytes',
    statement: 'Limits: scopeLabel length 2 to 120 (characters, not UTF-8 bytes)',
    request(c) {
      const b = body(c);
      if (isCreate(c) && b && typeof b.scopeLabel === 'string' && Buffer.byteLength(b.scopeLabel) > 120)
        c.body = { ...b, scopeLabel: 'x' };
      return undefined;
    },
  },
  {
    name: 'later-capability-items-unchecked',
    statement: 'POST /connections: capabilities: 1 to 24 items, EACH of length 2 to 120',
    request(c) {
      const b = body(c);
      if (!isCreate(c) || !b || !Array.isArray(b.capabilities)) return undefined;
      const ok = (x: unknown, i: number) => i === 0 || (typeof x === 'string' && x.length >= 2 && x.length <= 120);
      c.body = { ...b, capabilities: b.capabilities.filter(ok) };
      return undefined;
    },
  },
  {
    name: 'keys-case-folded',
    statement:
      'Limits: Idempotency-Key pattern ^[A-Za-z0-9._:-]{8,128}$ (upper and lower case letters are distinct keys)',
    request(c) {
      const key = c.headers['idempotency-key'];
      if (key) {
        sentKeys.set(c, key);
        c.headers['idempotency-key'] = key.toLowerCase();
      }
      return undefined;
    },
    answer(c, a) {
      const key = sentKeys.get(c);
      if (a.json.meta?.idempotencyKey && key) a.json.meta.idempotencyKey = key;
    },
  },
  {
    name: 'earlier-version-key-optional',
    statement: 'Versioning: change of 2026-06-12 (security): modifying calls require an idempotency key',
    request(c) {
      if (
        c.method === 'POST' &&
        c.headers['service-version'] === SUPPORTED_VERSIONS[1] &&
        !c.headers['idempotency-key']
      )
        c.headers['idempotency-key'] = `legacy-${Date.now()}-${Math.random().toString(36).slice(2)}`;
      return undefined;
    },
  },
  {
    name: 'cursor-zero-skips-backlog',
    statement: 'Status stream: resumes without gaps by sending cursor (last number read; 0: nothing read yet)',
    request(c) {
      if (c.path === P('/stream') && c.search.get('cursor') === '0') c.search.delete('cursor');
      if (c.path === P('/stream') && c.headers['last-event-id'] === '0') delete c.headers['last-event-id'];
      return undefined;
    },
  },
  {
    name: 'alt-ignores-resume',
    statement: 'Status stream: resumption by sequence number (the same interface at alt_base_url)',
    request(c) {
      if (c.base === 'alt' && c.path === P('/stream')) {
        c.search.delete('cursor');
        delete c.headers['last-event-id'];
      }
      return undefined;
    },
  },
  {
    name: 'alt-category-filter-ignored',
    statement: 'GET /providers, /connectors: category restricts to one category (the same interface at alt_base_url)',
    request(c) {
      if (c.base === 'alt' && (c.path === P('/providers') || c.path === P('/connectors'))) c.search.delete('category');
      return undefined;
    },
  },
  {
    name: 'keys-not-shared-across-base-urls',
    statement:
      'The same interface is also offered under a second address (the same key with the same content: the same response)',
    request(c) {
      const key = c.headers['idempotency-key'];
      if (c.base === 'alt' && key) c.headers['idempotency-key'] = `alt.${key}`.slice(0, 128);
      return undefined;
    },
    answer(c, a) {
      const key = a.json.meta?.idempotencyKey;
      if (c.base === 'alt' && typeof key === 'string') a.json.meta.idempotencyKey = key.replace(/^alt\./, '');
    },
  },
  {
    name: 'conflict-ignores-scope-label',
    statement: 'POST /connections: the same key with different content yields idempotency_conflict',
    request(c) {
      const key = c.headers['idempotency-key'];
      const b = body(c);
      if (!isCreate(c) || !key || !b) return undefined;
      const first = c.memory.get(`body:${c.headers['x-service-tenant']}:${key}`) as Record<string, unknown> | undefined;
      if (!first) c.memory.set(`body:${c.headers['x-service-tenant']}:${key}`, b);
      else if (JSON.stringify({ ...b, scopeLabel: first.scopeLabel }) === JSON.stringify(first)) c.body = first;
      return undefined;
    },
  },
  {
    name: 'foreign-tenant-served-on-writes',
    statement: 'Errors: forbidden | 403 | tenant not released (on every authenticated call, writes too)',
    request(c) {
      const own = home(c);
      const tenant = c.headers['x-service-tenant'];
      if (c.method === 'POST' && own && tenant && tenant !== own && c.path !== P('/connections'))
        c.headers['x-service-tenant'] = own;
      return undefined;
    },
  },
  {
    name: 'alt-issues-keys-with-slash',
    statement: 'POST /idempotency-keys: idempotencyKey (pattern ^[A-Za-z0-9._:-]{8,128}$), at alt_base_url too',
    answer(c, a) {
      const key = a.json.data?.idempotencyKey;
      if (c.base === 'alt' && c.path === P('/idempotency-keys') && typeof key === 'string')
        a.json.data.idempotencyKey = `${key.slice(0, 4)}/${key.slice(4)}`;
    },
  },
];
