import type { ProxyAnswer, ProxyCall, UnseenViolation } from './proxy.ts';
import { home, P } from './proxy-helpers.ts';

/**
 * Round 14 of the unseen violations, part 1: answers wrong under one condition — a critical decision's
 * `allowed` as a word, listed connection ids carrying the tenant, a conflict's hint as an object, a
 * second key issue marked replayed, calls without Service-Version answered as the earlier version,
 * listed pilot connections showing every capability of their connector, the self-description's routes
 * deduplicated by path, a narrower key pattern in the self-description, and a 403 naming the tenants
 * the access is released for.
 */
type Rec = Record<string, any>;
const ok = (a: ProxyAnswer) => a.status === 200 && a.json.ok === true;
const isSelf = (c: ProxyCall) => c.method === 'GET' && c.path === P('');
const isCheck = (c: ProxyCall) => c.method === 'POST' && c.path === P('/capabilities');
const isList = (c: ProxyCall) => c.method === 'GET' && c.path === P('/connections');

export const ROUND14_ANSWERS: UnseenViolation[] = [
  {
    name: 'critical-decision-allowed-as-word',
    statement: 'CapabilityDecision (all fields required): allowed | boolean',
    answer(c, a) {
      // Critical capabilities are decided by a separate policy engine whose verdict ("yes"/"no") is passed through.
      const d = a.json.data?.decision as Rec | undefined;
      if (isCheck(c) && ok(a) && d?.critical === true && typeof d.allowed === 'boolean')
        d.allowed = d.allowed ? 'yes' : 'no';
    },
  },
  {
    name: 'listed-connection-id-tenant-prefixed',
    statement:
      'GET /api/public/v1/connections: data: tenant (string), count (integer), connections (array of Connection) — the Connection a creation answered, under its id',
    answer(c, a) {
      // The list reads the composite primary key "<tenant>:<id>" instead of the connection's own id.
      if (!isList(c) || !ok(a)) return;
      const tenant = String(a.json.data?.tenant ?? c.headers['x-service-tenant'] ?? '');
      for (const x of (a.json.data?.connections ?? []) as Rec[])
        if (typeof x.id === 'string' && !x.id.startsWith(`${tenant}:`)) x.id = `${tenant}:${x.id}`;
    },
  },
  {
    name: 'conflict-hint-as-object',
    statement: 'Failure envelope (every error response): error.hint | string | no',
    answer(_c, a) {
      // The 409 handlers attach a structured hint (text plus documentation link) meant for the portal.
      if (a.status === 409 && a.json.ok === false && a.json.error)
        a.json.error.hint = {
          text: String(a.json.error.hint ?? 'Use a new key for each new operation.'),
          docs: '/docs/errors#409',
        };
    },
  },
  {
    name: 'key-issue-repeat-marked-replayed',
    statement:
      'Meta: replayed | boolean | no | true when the response comes from an earlier identical operation (POST /idempotency-keys issues a new key)',
    answer(c, a) {
      // The key endpoint runs behind the idempotency middleware, which fingerprints the body and flags a repeat.
      if (c.method !== 'POST' || c.path !== P('/idempotency-keys') || !ok(a)) return;
      const seen = (c.memory.get('r14-ops') as Set<string> | undefined) ?? new Set<string>();
      c.memory.set('r14-ops', seen);
      const op = `${c.headers['x-service-tenant']}|${a.json.data?.operation}`;
      if (seen.has(op) && a.json.meta) a.json.meta.replayed = true;
      seen.add(op);
    },
  },
  {
    name: 'headerless-calls-report-earlier-version',
    statement:
      'Versioning: The current version identifier is 2026-07-01 (a date). Responses report it in meta.version.',
    answer(c, a) {
      // The version resolver defaults to the oldest supported version when no Service-Version header is sent.
      if (c.headers['service-version'] === undefined && a.json.meta?.version === '2026-07-01')
        a.json.meta.version = '2026-06-12';
    },
  },
  {
    name: 'listed-pilot-connection-shows-connector-capabilities',
    statement:
      'What the service does: A connection binds a connector to an environment and a set of capabilities (Connection: capabilities)',
    answer(c, a) {
      // Pilot connections are listed through a join on the connector's capability table, not the booked ones.
      if (c.method === 'GET' && c.path === P('/connectors') && ok(a))
        for (const x of (a.json.data?.connectors ?? []) as Rec[]) c.memory.set(`r14-conn:${x.id}`, x.capabilities);
      if (c.method === 'GET' && c.path === P('/capabilities') && ok(a))
        for (const x of (a.json.data?.capabilities ?? []) as Rec[]) c.memory.set(`r14-cap:${x.id}`, x);
      if (!isList(c) || !ok(a)) return;
      for (const x of (a.json.data?.connections ?? []) as Rec[]) {
        const offered = c.memory.get(`r14-conn:${x.connectorId}`) as string[] | undefined;
        if (x.environment !== 'pilot' || !Array.isArray(offered) || !Array.isArray(x.capabilities)) continue;
        const booked = new Set((x.capabilities as Rec[]).map((e) => e.capability));
        for (const id of offered)
          if (!booked.has(id)) {
            const cap = c.memory.get(`r14-cap:${id}`) as Rec | undefined;
            x.capabilities.push({
              capability: id,
              critical: cap?.critical === true,
              idempotencyRequired: cap?.idempotencyRequired === true,
            });
          }
      }
    },
  },
  {
    name: 'self-description-routes-deduplicated-by-path',
    statement:
      'GET /api/public/v1: data: … routes (array of RouteInfo) — the endpoints table lists GET and POST on /capabilities and /connections',
    answer(c, a) {
      // The route table is built from a Map keyed by path, so the second method of a path overwrites nothing and is lost.
      if (!isSelf(c) || !ok(a) || !Array.isArray(a.json.data?.routes)) return;
      const byPath = new Map<string, Rec>();
      for (const r of a.json.data.routes as Rec[]) if (!byPath.has(r.path)) byPath.set(r.path, r);
      a.json.data.routes = [...byPath.values()];
    },
  },
  {
    name: 'self-description-idempotency-pattern-narrower',
    statement:
      'Limits: Idempotency-Key | pattern ^[A-Za-z0-9._:-]{8,128}$ (GET /api/public/v1: data: idempotency describes it)',
    answer(c, a) {
      // The self-description copies the pattern of an internal key generator (no dots or colons, 16 to 64).
      const idem = a.json.data?.idempotency as Rec | undefined;
      if (isSelf(c) && ok(a) && idem && typeof idem === 'object') idem.pattern = '^[A-Za-z0-9_-]{16,64}$';
    },
  },
  {
    name: 'forbidden-detail-lists-released-tenants',
    statement:
      'Errors: Error responses … contain the request identifier (meta.requestId) but no internal details (forbidden: tenant not released)',
    answer(c, a) {
      // The 403 handler helpfully lists the tenants the access is released for, read from the token's grant.
      const own = home(c);
      if (a.status === 200 && c.headers.authorization && c.headers['x-service-tenant']) {
        const seen = (c.memory.get('r14-tenants') as Set<string> | undefined) ?? new Set<string>();
        seen.add(c.headers['x-service-tenant']);
        c.memory.set('r14-tenants', seen);
      }
      if (a.status !== 403 || a.json.ok !== false || !a.json.error) return;
      const tenants = [...((c.memory.get('r14-tenants') as Set<string> | undefined) ?? new Set([own ?? '']))];
      a.json.error.detail = `Tenant ${c.headers['x-service-tenant']} is not released for this access; released: ${tenants.join(', ')}.`;
    },
  },
];
