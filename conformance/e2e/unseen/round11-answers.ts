import { randomUUID } from 'node:crypto';
import type { ProxyCall, UnseenViolation } from './proxy.ts';
import { isCreate, P } from './proxy-helpers.ts';
import { bodyOf, failure } from './round6-support.ts';

/**
 * Round 11 of the unseen violations, part 2: answers wrong in one detail — a refusal under the other
 * 409 code, a body at the limits refused as too large, a fractional wait, a limit header carrying its
 * policy, replays without the limit headers, listed connections losing nextStep, production checks
 * allowing what a connector does not offer, and a refused creation that still leaves a connection.
 */
type Rec = Record<string, any>;
const tenantOf = (c: ProxyCall) => c.headers['x-service-tenant'] ?? '';
const isList = (c: ProxyCall) => c.method === 'GET' && c.path === P('/connections');

export const ROUND11_ANSWERS: UnseenViolation[] = [
  {
    name: 'capability-denied-coded-as-conflict',
    statement:
      'Errors: capability_denied | 409 | capability is not released for this connection (idempotency_conflict | 409 means the same key with different content)',
    answer(_c, a) {
      // Both refusals are 409, and the mapper picks the first 409 code of its table.
      if (a.status !== 409 || a.json.error?.code !== 'capability_denied') return;
      a.json.error.code = 'idempotency_conflict';
    },
  },
  {
    name: 'large-valid-body-413',
    statement:
      'Limits: capabilities in connection creation | 1 to 24 items, each length 2 to 120 (a body at those limits is accepted; Endpoints: statuses 400, 401, 403, 404, 409, 428, 429, 500)',
    request(c) {
      // The gateway in front keeps its default 2 KiB body limit and answers 413 itself.
      if (c.method !== 'POST' || !c.body || JSON.stringify(c.body).length <= 2048) return undefined;
      return failure(c, 413, 'invalid_request', 'The request is incomplete or unsuitable.', 'The body is too large.');
    },
  },
  {
    name: 'retry-after-fractional-seconds',
    statement: 'Limits: Retry-After (recommended wait in seconds — the HTTP header: a whole number of seconds)',
    answer(_c, a) {
      // The limiter divides its millisecond reset time by 1000 without rounding.
      const v = a.headers['retry-after'];
      if (a.status === 429 && v !== undefined && /^\d+$/.test(v)) a.headers['retry-after'] = `${Number(v) + 0.437}`;
    },
  },
  {
    name: 'rate-limit-limit-with-window-suffix',
    statement: 'Limits: Response headers: X-RateLimit-Limit (limit for the current window — a number of calls)',
    answer(_c, a) {
      // The draft RateLimit-Policy syntax leaked into the legacy header.
      const v = a.headers['x-ratelimit-limit'];
      if (v !== undefined && /^\d+$/.test(v)) a.headers['x-ratelimit-limit'] = `${v};w=60`;
    },
  },
  {
    name: 'replay-without-rate-limit-headers',
    statement:
      'Limits: Response headers: X-RateLimit-Limit, X-RateLimit-Remaining (a replayed answer is a response too, and was counted)',
    answer(_c, a) {
      // Replays are served from the idempotency cache tier, which sits in front of the limiter's header writer.
      if (a.json.meta?.replayed !== true) return;
      delete a.headers['x-ratelimit-limit'];
      delete a.headers['x-ratelimit-remaining'];
    },
  },
  {
    name: 'listed-next-step-null-after-provisioning',
    statement: 'Connection: nextStep | string (in GET /connections too, also once the connection is some seconds old)',
    answer(c, a) {
      // A background job clears the nextStep column once provisioning has run; the serializer writes null.
      const list = a.json.data?.connections;
      if (!isList(c) || a.status !== 200 || !Array.isArray(list)) return;
      for (const x of list as Rec[])
        if (typeof x.createdAt === 'string' && Date.now() - Date.parse(x.createdAt) > 4000) x.nextStep = null;
    },
  },
  {
    name: 'production-check-allows-unoffered',
    statement:
      'What the service does: A capability check returns a decision (allowed or not) with a reason (in production too: a capability the connector does not offer is not allowed)',
    answer(c, a) {
      // Production checks consult only the tenant's release list, not the connector's own capabilities.
      const offers = (c.memory.get('offers') as Map<string, string[]> | undefined) ?? new Map<string, string[]>();
      c.memory.set('offers', offers);
      if (c.method === 'GET' && c.path === P('/connectors') && Array.isArray(a.json.data?.connectors))
        for (const x of a.json.data.connectors as Rec[])
          if (typeof x.id === 'string' && Array.isArray(x.capabilities)) offers.set(x.id, x.capabilities);
      const body = bodyOf(c);
      const d = a.json.data?.decision;
      if (c.method !== 'POST' || c.path !== P('/capabilities') || a.status !== 200 || !d) return;
      if (body?.environment !== 'production') return;
      const offered = offers.get(String(d.connectorId));
      if (!offered || offered.includes(String(d.capability))) return;
      d.allowed = true;
      d.reason = 'The capability is released for production.';
    },
  },
  {
    name: 'capability-denied-leaves-connection',
    statement:
      'Errors: capability_denied | 409 | capability is not released for this connection (a refused creation creates nothing: GET /connections lists only connections of the tenant)',
    answer(c, a) {
      // The row is inserted before the release check, and the 409 path forgets to roll back.
      const slot = `half-made:${tenantOf(c)}`;
      const made = (c.memory.get(slot) as Rec[] | undefined) ?? [];
      c.memory.set(slot, made);
      const body = bodyOf(c);
      if (isCreate(c) && a.status === 409 && a.json.error?.code === 'capability_denied' && body) {
        const caps = Array.isArray(body.capabilities) ? body.capabilities : [];
        made.push({
          id: `con_${randomUUID().replaceAll('-', '').slice(0, 16)}`,
          connectorId: body.connectorId,
          environment: body.environment,
          scopeLabel: body.scopeLabel,
          state: 'pending',
          capabilities: caps.map((x) => ({ capability: String(x), critical: false, idempotencyRequired: false })),
          nextStep: 'Waiting for the capability release.',
          createdAt: new Date().toISOString(),
        });
      }
      const list = a.json.data?.connections;
      if (!isList(c) || a.status !== 200 || !Array.isArray(list) || !made.length) return;
      a.json.data.connections = [...list, ...made];
      a.json.data.count = a.json.data.connections.length;
    },
  },
];
