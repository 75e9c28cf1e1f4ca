// Violations at the edges of a route or in one place only, where the kit looked only at the plain path, the home
// tenant and the main address: a route's other spellings, a refusal of access in another place, a replay mark on
// a refusal, a decision of another address or version.
import { BASE_PATH, SUPPORTED_VERSIONS } from '../../simulator/contract/versions.ts';
import type { PlainRequest } from '../../simulator/index.ts';
import { defaultAccess } from './default-access.ts';
import { editJson, failureOf, jsonBodyOf } from './json-edit.ts';
import type { Violation } from './types.ts';

const CAPABILITIES = `${BASE_PATH}/capabilities`;
const CONNECTORS = `${BASE_PATH}/connectors`;
const EARLIER = SUPPORTED_VERSIONS[1] ?? '2026-06-12';
const isCheck = (req: PlainRequest) => req.method === 'POST' && req.path === CAPABILITIES;

/** Per simulator: the keys of calls answered 200. */
const usedKeys = new WeakMap<object, Set<string>>();
/** Per simulator: each connector's capabilities, as GET /connectors listed them. */
const offered = new WeakMap<object, Map<string, string[]>>();

export const EDGE_PLACE_VIOLATIONS: Violation[] = [
  {
    name: 'trailing-slash-html-404',
    description:
      "a route spelled with a trailing slash answers the web framework's HTML 404 page (strict routing) instead of the failure envelope",
    section: 'Errors',
    catches: ['errors.unknown-route'],
    async handle(req, next) {
      if (!(req.path.length > BASE_PATH.length + 1 && req.path.endsWith('/'))) return next(req);
      return {
        status: 404,
        headers: { 'content-type': 'text/html; charset=utf-8' },
        body: `<!DOCTYPE html><html><body><pre>Cannot GET ${req.path.replace(/[<>&]/g, '')}</pre></body></html>`,
      };
    },
  },
  {
    name: 'other-tenant-unsigned-forbidden',
    description:
      'a call without a valid token naming a tenant other than the first answers 403 forbidden (the tenant lookup runs before the token check)',
    section: 'Errors',
    catches: ['auth.missing-token', 'auth.invalid-token'],
    async handle(req, next, core) {
      const res = await next(req);
      const tenant = req.headers['x-service-tenant'];
      if (res.status !== 401 || !tenant || tenant === (await defaultAccess(core)).tenant) return res;
      return failureOf('forbidden', 'The tenant is not released for this access.');
    },
  },
  {
    name: 'unauthorized-used-key-replayed',
    description:
      'a call refused 401 under an Idempotency-Key an earlier call got 200 with is marked meta.replayed true (the replay lookup runs before the token check)',
    section: 'Meta',
    catches: ['generated.replay-after-a-first-call'],
    // The same answer names the key it was sent with, where the rule about keys echoed judges it too.
    mayCatch: ['generated.idempotency-key-echo'],
    async handle(req, next, core) {
      const res = await next(req);
      const key = req.headers['idempotency-key'];
      const used = usedKeys.get(core) ?? new Set<string>();
      usedKeys.set(core, used);
      if (!key) return res;
      if (res.status === 200) used.add(key);
      if (res.status !== 401 || !used.has(key)) return res;
      return editJson(res, (b) => {
        if (b.meta) Object.assign(b.meta, { replayed: true, idempotencyKey: key });
      });
    },
  },
  {
    name: 'alt-unoffered-capability-allowed',
    description:
      'at the alternate address a policy sidecar answers every capability check allowed, also one of a capability the connector does not offer',
    section: 'POST /api/public/v1/capabilities',
    where: 'alt',
    catches: ['capabilities.unoffered-not-allowed'],
    async handle(req, next, core) {
      const res = await next(req);
      const table = offered.get(core) ?? new Map<string, string[]>();
      offered.set(core, table);
      if (req.method === 'GET' && req.path === CONNECTORS && res.status === 200 && res.body)
        for (const c of (JSON.parse(res.body) as { data?: { connectors?: { id: string; capabilities: string[] }[] } })
          .data?.connectors ?? [])
          table.set(c.id, c.capabilities);
      if (!isCheck(req) || res.status !== 200) return res;
      const asked = jsonBodyOf(req);
      const caps = table.get(String(asked?.connectorId));
      // Only what the connector does not offer: its own capabilities keep their decisions.
      if (!caps || caps.includes(String(asked?.capability))) return res;
      return editJson(res, (b) => {
        const decision = (b.data as { decision?: Record<string, unknown> } | undefined)?.decision;
        if (decision) decision.allowed = true;
      });
    },
  },
  {
    name: 'earlier-version-decision-idempotency-required-false',
    description:
      'capability decisions asked under 2026-06-12 report idempotencyRequired false (that version adapter defaults the field it did not have)',
    section: 'CapabilityDecision (all fields required)',
    catches: ['generated.capability-flags-agree'],
    async handle(req, next) {
      const res = await next(req);
      if (!isCheck(req) || req.headers['service-version'] !== EARLIER || res.status !== 200) return res;
      return editJson(res, (b) => {
        const decision = (b.data as { decision?: Record<string, unknown> } | undefined)?.decision;
        if (decision) decision.idempotencyRequired = false;
      });
    },
  },
];
