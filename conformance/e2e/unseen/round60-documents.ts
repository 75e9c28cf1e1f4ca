import type { ProxyCall, UnseenViolation } from './proxy.ts';
import { home, isCreate, P } from './proxy-helpers.ts';
import { earlier, type Rec } from './round44-common.ts';

/**
 * Round 60, part 3: the earlier version 2026-06-12 across the surface: its lists and decisions against the
 * current version's for the same data, its failures' statuses, its key rule, its stream and its webhook
 * registration. The interface names only two changes for 2026-07-01 (a generated reference and the delivery
 * log) and one for 2026-06-12 (the key requirement), so the same data answers the same under both.
 */
const keyOf = (c: ProxyCall) => c.headers['idempotency-key'];
const isRegistration = (c: ProxyCall) => c.method === 'POST' && c.path === P('/webhooks');
const isReceiverRead = (c: ProxyCall) => c.method === 'GET' && /^\/api\/public\/v1\/webhooks(\/[^/]+)?$/.test(c.path);
const rewritten = new WeakMap<ProxyCall, string>();

export const ROUND60_DOCUMENTS: UnseenViolation[] = [
  {
    name: 'current-creation-missing-from-earlier-version-list',
    statement:
      'GET /api/public/v1/connections: data: tenant, count, connections (array of Connection) (connections of the tenant, read under Service-Version 2026-06-12 after a creation under 2026-07-01)',
    answer(c, a) {
      // The 2026-06-12 read model is a projection fed only by the old write path: connections created through
      // the current version never reach it.
      home(c);
      const created = (c.memory.get('r60-current-created') as Set<string> | undefined) ?? new Set<string>();
      c.memory.set('r60-current-created', created);
      if (isCreate(c) && !earlier(c) && a.status === 200 && a.json.data?.id) created.add(a.json.data.id);
      if (c.method !== 'GET' || c.path !== P('/connections') || !earlier(c) || a.status !== 200) return;
      const list = a.json.data?.connections;
      if (!Array.isArray(list)) return;
      a.json.data.connections = list.filter((x: Rec) => !created.has(x.id));
      a.json.data.count = a.json.data.connections.length;
    },
  },
  {
    name: 'earlier-version-check-ignores-environment',
    statement:
      'POST /api/public/v1/capabilities: environment | string | no | Environment; default sandbox; data: decision, environment (a check under Service-Version 2026-06-12 naming another environment)',
    request(c) {
      // The 2026-06-12 handler predates the environment field: it evaluates every check for the sandbox and
      // only echoes the environment it was asked for.
      if (!earlier(c) || c.method !== 'POST' || c.path !== P('/capabilities')) return undefined;
      const body = c.body as Rec | undefined;
      if (!body || typeof body.environment !== 'string') return undefined;
      rewritten.set(c, body.environment);
      const { environment: _dropped, ...rest } = body;
      c.body = rest;
      return undefined;
    },
    answer(c, a) {
      const asked = rewritten.get(c);
      if (asked === undefined || a.status !== 200 || !a.json.data) return;
      a.json.data.environment = asked;
    },
  },
  {
    name: 'earlier-version-capability-catalog-drops-last-entry',
    statement:
      'GET /api/public/v1/capabilities: data: count, capabilities (array of Capability) (the catalog under Service-Version 2026-06-12 against 2026-07-01)',
    answer(c, a) {
      // The 2026-06-12 catalog query still carries the LIMIT of the catalog's size when that version was cut:
      // the capability added since is missing there.
      if (c.method !== 'GET' || c.path !== P('/capabilities') || !earlier(c) || a.status !== 200) return;
      const list = a.json.data?.capabilities;
      if (!Array.isArray(list) || list.length < 2) return;
      list.pop();
      a.json.data.count = list.length;
    },
  },
  {
    name: 'earlier-version-invalid-request-answered-422',
    statement: 'Errors: invalid_request | 400 | request incomplete or unsuitable (under Service-Version 2026-06-12)',
    answer(c, a) {
      // The 2026-06-12 stack keeps its validation framework's default status for schema errors.
      if (earlier(c) && a.status === 400 && a.json.error?.code === 'invalid_request') a.status = 422;
    },
  },
  {
    name: 'earlier-version-changed-content-under-same-key-replayed',
    statement:
      'POST /api/public/v1/connections: The same key with different content yields idempotency_conflict (under Service-Version 2026-06-12)',
    answer(c, a) {
      // The 2026-06-12 idempotency filter compares only the key, not the content's fingerprint: a changed
      // body under a used key gets the stored answer back as a replay.
      const key = keyOf(c);
      if (!isCreate(c) || !key) return;
      const slot = `r60-created:${c.headers['x-service-tenant'] ?? ''}:${key}`;
      if (a.status === 200 && !c.memory.has(slot)) c.memory.set(slot, structuredClone(a.json));
      const stored = c.memory.get(slot) as Rec | undefined;
      if (!earlier(c) || a.status !== 409 || a.json.error?.code !== 'idempotency_conflict' || !stored) return;
      a.status = 200;
      a.json = { ...structuredClone(stored), meta: { ...a.json.meta, idempotencyKey: key, replayed: true } };
    },
  },
  {
    name: 'earlier-version-receiver-list-shows-signing-key',
    statement:
      'POST /api/public/v1/webhooks: The signing key is issued exactly once in the response (receivers read under Service-Version 2026-06-12)',
    answer(c, a) {
      // The 2026-06-12 serializer of receivers was written before the secret moved to its own column and
      // still maps every column of the row, the secret included.
      home(c);
      const secrets = (c.memory.get('r60-secrets') as Map<string, string> | undefined) ?? new Map<string, string>();
      c.memory.set('r60-secrets', secrets);
      if (isRegistration(c) && a.status === 200 && a.json.data?.signingSecret)
        secrets.set(a.json.data.id, a.json.data.signingSecret);
      if (!isReceiverRead(c) || !earlier(c) || a.status !== 200 || !a.json.data) return;
      const show = (r: Rec) => {
        const secret = secrets.get(r.id);
        if (secret) r.signingSecret = secret;
      };
      if (Array.isArray(a.json.data.webhooks)) a.json.data.webhooks.forEach(show);
      else show(a.json.data);
    },
  },
  {
    name: 'earlier-version-stream-serves-public-feed-to-token-holders',
    statement:
      'Events: GET /api/public/v1/stream delivers state changes continuously as Server-Sent Events (a tenant reading its stream under Service-Version 2026-06-12)',
    request(c) {
      // The 2026-06-12 stream route was mounted before the tenant feeds existed and never reads the
      // credentials: a tenant pinned to that version gets the public feed and none of its state changes.
      if (earlier(c) && c.method === 'GET' && c.path === P('/stream')) {
        delete c.headers.authorization;
        delete c.headers['x-service-tenant'];
      }
      return undefined;
    },
  },
  {
    name: 'earlier-version-registration-replay-issues-new-signing-key',
    statement:
      'POST /api/public/v1/webhooks: The signing key is issued exactly once in the response; What the service does: the same key with the same content returns the same response again (a registration repeated under Service-Version 2026-06-12)',
    request(c) {
      // The 2026-06-12 registration path stores its keys in a cache that the version router clears for each
      // pinned caller: the repeat registers a second receiver with a new key, answered as a replay.
      const key = keyOf(c);
      if (!isRegistration(c) || !earlier(c) || !key) return undefined;
      const slot = `r60-reg:${key}`;
      const n = ((c.memory.get(slot) as number | undefined) ?? 0) + 1;
      c.memory.set(slot, n);
      if (n > 1) {
        rewritten.set(c, key);
        c.headers['idempotency-key'] = `${key.slice(0, 110)}:again${n}`;
      }
      return undefined;
    },
    answer(c, a) {
      const original = rewritten.get(c);
      if (!isRegistration(c) || original === undefined || a.status !== 200) return;
      a.json.meta = { ...a.json.meta, idempotencyKey: original, replayed: true };
    },
  },
];
