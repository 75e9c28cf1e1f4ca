// Violations of a limit or a rule in one place only: the second tenant, the alternate address, the earlier
// version, one environment. The common path stays right, so a kit that reads only the first tenant at the
// main address under the current version sees nothing; each proves a check that probes the other places.
import { BASE_PATH, SUPPORTED_VERSIONS } from '../../simulator/contract/versions.ts';
import type { PlainResponse } from '../../simulator/index.ts';
import { defaultAccess } from './default-access.ts';
import { editJson, failureOf, jsonBodyOf, withJsonBody } from './json-edit.ts';
import type { Violation } from './types.ts';

const CONNECTIONS = `${BASE_PATH}/connections`;
const KEYS = `${BASE_PATH}/idempotency-keys`;
const EARLIER = SUPPORTED_VERSIONS[1] ?? '2026-06-12';
const DELIVERY_LOG = new RegExp(`^${BASE_PATH}/webhooks/[^/]+/deliveries$`);

/** The delivery logs read so far, per sandbox (per run). */
const rereads = new WeakMap<object, Set<string>>();

/** The first answer of each delivery log read, per sandbox (per run): a cache that never expires. */
const cachedLogs = new WeakMap<object, Map<string, PlainResponse>>();

type Body = Record<string, unknown>;

/** The connections created under the earlier version, per sandbox (per run): kept out of its audit log. */
const unaudited = new WeakMap<object, Set<string>>();

/** The first creation body per tenant and key, per sandbox (per run). */
const firstBodies = new WeakMap<object, Map<string, Body>>();

const bodyOf = (req: Parameters<typeof jsonBodyOf>[0]): Body | undefined => jsonBodyOf(req);

const isCreate = (req: { method: string; path: string }) => req.method === 'POST' && req.path === CONNECTIONS;

export const PLACE_VIOLATIONS: Violation[] = [
  {
    name: 'second-tenant-conflict-ignores-connector',
    description:
      "for a tenant other than the first, a creation repeating a key with another connectorId (the rest alike) is answered as a replay of the first: that tenant's fingerprint is built from an older field list without connectorId",
    section: 'POST /api/public/v1/connections',
    catches: ['idempotency.tenant-scope'],
    async handle(req, next, core) {
      const tenant = req.headers['x-service-tenant'];
      const key = req.headers['idempotency-key'];
      const body = bodyOf(req);
      if (!isCreate(req) || !tenant || !key || !body || tenant === (await defaultAccess(core)).tenant) return next(req);
      const seen = firstBodies.get(core) ?? new Map<string, Body>();
      firstBodies.set(core, seen);
      const first = seen.get(`${tenant}\n${key}`);
      if (!first) {
        seen.set(`${tenant}\n${key}`, body);
        return next(req);
      }
      const { connectorId: _a, ...rest } = body;
      const { connectorId: _b, ...stored } = first;
      const onlyConnector = first.connectorId !== body.connectorId && JSON.stringify(rest) === JSON.stringify(stored);
      return next(onlyConnector ? withJsonBody(req, { ...body, connectorId: first.connectorId }) : req);
    },
  },
  {
    name: 'alt-operation-over-64-refused',
    description:
      'at the alternate address POST /idempotency-keys refuses an operation of 65 to 80 characters (that region still stores it in a 64-character column)',
    section: 'Limits',
    where: 'alt',
    catches: ['limits.operation-length'],
    async handle(req, next) {
      const op = bodyOf(req)?.operation;
      if (req.method === 'POST' && req.path === KEYS && typeof op === 'string' && op.length > 64 && op.length <= 80)
        return failureOf('invalid_request', 'operation: at most 64 characters.');
      return next(req);
    },
  },
  {
    name: 'earlier-version-scope-label-defaulted',
    description:
      'a creation naming Service-Version 2026-06-12 without scopeLabel is taken, the connector id put in its place (the earlier request model had a default)',
    section: 'POST /api/public/v1/connections',
    catches: ['connections.required-everywhere'],
    async handle(req, next) {
      const body = bodyOf(req);
      const earlier = req.headers['service-version'] === EARLIER;
      if (!isCreate(req) || !earlier || !body || body.scopeLabel !== undefined || typeof body.connectorId !== 'string')
        return next(req);
      return next(withJsonBody(req, { ...body, scopeLabel: body.connectorId }));
    },
  },
  {
    name: 'development-capabilities-over-16-refused',
    description:
      'a development connection with 17 to 24 capabilities is refused 400 (the development provisioner has 16 slots and checks them first)',
    section: 'Limits',
    catches: ['limits.connection-capabilities'],
    async handle(req, next) {
      const body = bodyOf(req);
      const list = body?.capabilities;
      if (isCreate(req) && body?.environment === 'development' && Array.isArray(list) && list.length > 16)
        if (list.length <= 24) return failureOf('invalid_request', 'capabilities: at most 16 items in development.');
      return next(req);
    },
  },
  {
    name: 'delivery-log-cached-before-redelivery',
    description:
      "a receiver's delivery log answers as it first did once it was read after a delivery (a response cache keyed by the path): the deliveries triggered again never show in it",
    section: 'Webhooks',
    // And every delivery after the first read is missing from the log read at the run's end.
    catches: ['webhooks.redelivery', 'webhooks.delivery-log-complete'],
    // The cached answer keeps its meta.at: read more than 2 s later, it states a time before answers sent earlier.
    mayCatch: ['envelope.meta-at-in-order'],
    async handle(req, next, core) {
      if (req.method !== 'GET' || !DELIVERY_LOG.test(req.path)) return next(req);
      const cache = cachedLogs.get(core) ?? new Map<string, PlainResponse>();
      cachedLogs.set(core, cache);
      const key = `${req.headers['x-service-tenant']}\n${req.path}`;
      const hit = cache.get(key);
      if (hit) return hit;
      const res = await next(req);
      // Only a log that already lists a delivery is kept (an empty one would hide the first delivery too).
      if (res.status === 200 && /"deliveries":\[\{/.test(res.body ?? '')) cache.set(key, res);
      return res;
    },
  },
  {
    name: 'alt-yaml-operation-max-40',
    description:
      "the alternate address's YAML files of the description give an idempotency key's operation at most 40 characters (that region's YAML build lags its JSON, which says 80)",
    section: 'GET /api/public/v1/openapi.json',
    where: 'alt',
    catches: ['openapi.yaml-matches-json'],
    async handle(req, next) {
      const res = await next(req);
      if (req.method !== 'GET' || !/\.ya?ml$/.test(req.path) || res.status !== 200 || res.body === undefined)
        return res;
      return { ...res, body: res.body.replace(/maxLength: 80\b/g, 'maxLength: 40') };
    },
  },
  {
    name: 'alt-delivery-log-empty',
    description:
      "at the alternate address a receiver's delivery log lists no delivery (that region reads a replica the delivery workers never write)",
    section: 'Webhooks',
    where: 'alt',
    catches: ['webhooks.delivery-log'],
    async handle(req, next) {
      const res = await next(req);
      if (req.method !== 'GET' || !DELIVERY_LOG.test(req.path) || res.status !== 200) return res;
      return editJson(res, (b) => {
        const data = b.data as { deliveries?: unknown[]; count?: unknown } | undefined;
        if (data?.deliveries) Object.assign(data, { deliveries: [], ...('count' in data ? { count: 0 } : {}) });
      });
    },
  },
  {
    name: 'delivery-log-reread-marked-replayed',
    description:
      "a receiver's delivery log read a second time answers with meta.replayed true (a response cache marks what it serves again)",
    section: 'Meta',
    catches: ['envelope.beyond-the-table'],
    async handle(req, next, core) {
      const res = await next(req);
      if (req.method !== 'GET' || !DELIVERY_LOG.test(req.path) || res.status !== 200) return res;
      const seen = rereads.get(core) ?? new Set<string>();
      rereads.set(core, seen);
      const again = seen.has(req.path);
      seen.add(req.path);
      return again ? editJson(res, (b) => Object.assign(b.meta as object, { replayed: true })) : res;
    },
  },
  {
    name: 'earlier-version-creations-not-audited',
    description:
      "connections created with Service-Version 2026-06-12 never reach the audit log (the earlier version's handler predates the audit hook): the log shows none of their entries",
    section: 'GET /api/public/v1/audit-log (appears in a sample call only)',
    // audit.integrity sees the gap the missing entries leave in the numbering; audit.records-change the change untraced.
    catches: ['audit.records-change', 'audit.integrity', 'places.scenario-alike'],
    async handle(req, next, core) {
      const res = await next(req);
      const hidden = unaudited.get(core) ?? new Set<string>();
      unaudited.set(core, hidden);
      if (isCreate(req) && req.headers['service-version'] === EARLIER && res.status === 200) {
        const id = (JSON.parse(res.body ?? '{}') as { data?: { id?: unknown } }).data?.id;
        if (
          typeof id === 'string' &&
          (JSON.parse(res.body ?? '{}') as { meta?: { replayed?: unknown } }).meta?.replayed !== true
        )
          hidden.add(id);
      }
      if (req.method !== 'GET' || req.path !== `${BASE_PATH}/audit-log` || res.status !== 200 || !hidden.size)
        return res;
      return editJson(res, (b) => {
        for (const [k, v] of Object.entries(b.data ?? {}))
          if (Array.isArray(v))
            (b.data as Record<string, unknown>)[k] = v.filter(
              (e) => ![...hidden].some((id) => JSON.stringify(e).includes(id)),
            );
      });
    },
  },
  {
    name: 'earlier-version-webhook-without-key-accepted',
    description:
      "a receiver registered with Service-Version 2026-06-12 and no Idempotency-Key is accepted (that version's route was left out of the key filter added with it)",
    section: 'Versioning',
    catches: ['idempotency.required'],
    async handle(req, next) {
      const keyless = req.method === 'POST' && req.path === `${BASE_PATH}/webhooks` && !req.headers['idempotency-key'];
      if (!keyless || req.headers['service-version'] !== EARLIER) return next(req);
      // Served as if keyed by a key of its own (the old route's), which it does not report.
      const key = `earlier-${Date.now()}-${Math.random().toString(36).slice(2)}`;
      const res = await next({ ...req, headers: { ...req.headers, 'idempotency-key': key } });
      return editJson(res, (b) => {
        if (b.meta) delete b.meta.idempotencyKey;
      });
    },
  },
  {
    name: 'earlier-version-pilot-refused',
    description:
      "a creation naming Service-Version 2026-06-12 in the environment pilot is refused 400 invalid_request (that version's environment enum predates pilot)",
    section: 'Environment (enumeration)',
    catches: ['limits.connection-capabilities'],
    async handle(req, next) {
      const earlier = isCreate(req) && req.headers['service-version'] === EARLIER;
      return earlier && bodyOf(req)?.environment === 'pilot'
        ? failureOf('invalid_request', 'environment: must be one of development, sandbox, production')
        : next(req);
    },
  },
  {
    name: 'second-tenant-capability-over-100-refused',
    description:
      "for a tenant other than the first, a creation with a capability of 101 to 120 characters is refused 400 invalid_request (that tenant's booking table has a 100-character column)",
    section: 'Limits',
    catches: ['limits.connection-capabilities'],
    async handle(req, next, core) {
      const tenant = req.headers['x-service-tenant'];
      if (!isCreate(req) || !tenant || tenant === (await defaultAccess(core)).tenant) return next(req);
      const caps = bodyOf(req)?.capabilities;
      const long = Array.isArray(caps) && caps.some((c) => typeof c === 'string' && c.length > 100 && c.length <= 120);
      return long ? failureOf('invalid_request', 'capabilities: each at most 100 characters') : next(req);
    },
  },
  {
    name: 'earlier-version-ten-capabilities',
    description:
      "under Service-Version 2026-06-12, a creation of more than ten capabilities the catalog knows is refused 400 (the earlier version's handler kept an older limit of ten; made-up names still reach the capability check first)",
    section: 'Limits',
    catches: ['limits.connection-capabilities'],
    async handle(req, next, core) {
      const caps = bodyOf(req)?.capabilities;
      if (!isCreate(req) || req.headers['service-version']?.trim() !== EARLIER || !Array.isArray(caps))
        return next(req);
      const known = new Set(core.state.fixtures.capabilities.map((c) => c.id));
      if (caps.length <= 10 || !caps.every((c) => typeof c === 'string' && known.has(c))) return next(req);
      return failureOf('invalid_request', 'capabilities must contain at most 10 items');
    },
  },
  {
    name: 'second-tenant-development-refused',
    description:
      'for a tenant other than the first, a creation in development is refused 400 (that tenant was onboarded with the production-side environments only)',
    section: 'POST /api/public/v1/connections',
    catches: ['connections.every-environment'],
    async handle(req, next, core) {
      const tenant = req.headers['x-service-tenant'];
      if (!isCreate(req) || !tenant || jsonBodyOf(req)?.environment !== 'development') return next(req);
      if (tenant === (await defaultAccess(core)).tenant) return next(req);
      return failureOf('invalid_request', 'environment development is not offered to this tenant');
    },
  },
];
