// Violations that show only to some callers: the second tenant, a client that sends its credentials to a
// public route, a reader of the alternate address's document. Each is the
// kind of slip a deployment makes in one branch while the common path stays right.
import { BASE_PATH } from '../../simulator/contract/versions.ts';
import { defaultAccess } from './default-access.ts';
import { everyObject, type Node } from './document-edit.ts';
import { editJson, failureOf, jsonBodyOf, withHeader } from './json-edit.ts';
import type { Violation } from './types.ts';

const CAPABILITIES = `${BASE_PATH}/capabilities`;
const OPENAPI = `${BASE_PATH}/openapi.json`;
const PROVIDERS = `${BASE_PATH}/providers`;
const REDELIVER = new RegExp(`^${BASE_PATH}/webhooks/[^/]+/deliveries/[^/]+/redeliver$`);

/** The last Authorization header the sandbox accepted, per sandbox (per run). */
const lastAccepted = new WeakMap<object, string>();

/** The last Authorization header the sandbox accepted (at either address), per sandbox (per run). */
const lastAltPost = new WeakMap<object, string>();

export const CALLER_VIOLATIONS: Violation[] = [
  {
    name: 'alt-post-unknown-token-taken',
    description:
      "at the alternate address a POST whose bearer token the service never issued is served under the last token a call there was accepted with (the gateway's session pool)",
    section: 'Required on every authenticated call',
    catches: ['auth.invalid-token'],
    async handle(req, next, core, base) {
      const res = await next(req);
      const auth = req.headers.authorization ?? '';
      if (!/^Bearer /i.test(auth)) return res;
      if (res.status < 400) lastAltPost.set(core, auth);
      const last = lastAltPost.get(core);
      const alt = base === 'alt' && req.method === 'POST';
      return alt && res.status === 401 && last ? next(withHeader(req, 'authorization', last)) : res;
    },
  },
  {
    name: 'alt-redelivery-not-found',
    description:
      'at the alternate address triggering a logged delivery again answers 404 not_found (the gateway there routes no re-trigger)',
    section: 'Webhooks',
    catches: ['webhooks.redelivery'],
    where: 'alt',
    async handle(req, next) {
      if (req.method === 'POST' && REDELIVER.test(req.path)) return failureOf('not_found', 'No route for this path.');
      return next(req);
    },
  },
  {
    name: 'alt-redelivery-acknowledged-not-sent',
    description:
      "at the alternate address triggering a logged delivery again answers 200 with the logged delivery but sends nothing (that region's re-trigger queue has no worker)",
    section: 'Webhooks',
    catches: ['webhooks.redelivery'],
    where: 'alt',
    async handle(req, next) {
      const at = REDELIVER.exec(req.path);
      if (req.method !== 'POST' || !at) return next(req);
      // The answer the log gives of that delivery, as a redelivery's answer would read.
      const log = await next({
        ...req,
        method: 'GET',
        path: req.path.replace(/\/[^/]+\/redeliver$/, ''),
        body: undefined,
      });
      const id = decodeURIComponent(req.path.split('/').at(-2) ?? '');
      return editJson(log, (b) => {
        const list = Object.values(b.data ?? {}).find(Array.isArray) as { id?: unknown }[] | undefined;
        b.data = (list?.find((d) => d.id === id) ?? {}) as Record<string, unknown>;
      });
    },
  },
  {
    name: 'earlier-version-reads-without-token',
    description:
      "a read naming Service-Version 2026-06-12 without a token is served under the last token the gateway accepted (a legacy path kept for old clients' sessions)",
    section: 'Versioning',
    catches: ['versions.earlier-alike'],
    async handle(req, next, core) {
      const auth = req.headers.authorization;
      const legacy = req.headers['service-version'] === '2026-06-12' && req.method === 'GET';
      const last = lastAccepted.get(core);
      const res = await next(legacy && !auth && last ? withHeader(req, 'authorization', last) : req);
      if (auth && res.status < 400) lastAccepted.set(core, auth);
      return res;
    },
  },
  {
    name: 'second-tenant-environment-required',
    description: 'a capability check without environment is refused 400 for every tenant but the first one',
    section: 'POST /api/public/v1/capabilities',
    catches: ['capabilities.default-environment', 'limits.capability-length', 'limits.connector-id-length'],
    async handle(req, next, core) {
      const tenant = req.headers['x-service-tenant'];
      const body = jsonBodyOf(req);
      if (req.method === 'POST' && req.path === CAPABILITIES && tenant && body && body.environment === undefined)
        if (tenant !== (await defaultAccess(core)).tenant)
          return failureOf('invalid_request', 'environment is required');
      return next(req);
    },
  },
  {
    name: 'self-description-public-routes-hidden-from-token',
    description: 'GET /api/public/v1 read with an Authorization header lists only the authenticated routes',
    section: 'GET /api/public/v1',
    catches: ['discovery.interface-routes-listed'],
    async handle(req, next) {
      const res = await next(req);
      if (req.path !== BASE_PATH || !req.headers.authorization || res.status !== 200) return res;
      return editJson(res, (b) => {
        const data = b.data as { routes?: { auth?: unknown }[] } | undefined;
        if (data?.routes) data.routes = data.routes.filter((r) => r.auth !== false);
      });
    },
  },
  {
    name: 'bearer-scheme-case-sensitive',
    description: 'an Authorization header whose scheme is not written exactly "Bearer" (bearer, BEARER) is refused 401',
    section: 'Required on every authenticated call',
    catches: ['auth.scheme-case-insensitive'],
    async handle(req, next) {
      const auth = req.headers.authorization;
      if (auth && /^bearer /i.test(auth) && !auth.startsWith('Bearer '))
        return failureOf('unauthorized', 'The call was not signed in.');
      return next(req);
    },
  },
  {
    // Not a caller's slip but the catalog's: a provider renamed while its connectors keep the old id.
    name: 'provider-renamed-connectors-keep-old-id',
    description: 'GET /providers lists its first provider under a new id; the connectors still name the old one',
    section: 'What the service does',
    catches: ['catalog.references', 'requests.other-forms-as-route'],
    async handle(req, next) {
      const res = await next(req);
      if (req.path !== PROVIDERS || req.method !== 'GET' || res.status !== 200) return res;
      return editJson(res, (b) => {
        const list = (b.data as { providers?: { id?: unknown }[] } | undefined)?.providers;
        const first = list?.[0];
        if (first && typeof first.id === 'string') first.id = `${first.id}-group`;
      });
    },
  },
  {
    name: 'redelivery-keyless-taken',
    description:
      'POST …/deliveries/{id}/redeliver without an Idempotency-Key is taken (a key made up for it) instead of 428',
    section: 'Versioning',
    catches: ['webhooks.redelivery'],
    async handle(req, next) {
      const keyless = !Object.keys(req.headers).some((h) => h.toLowerCase() === 'idempotency-key');
      if (req.method === 'POST' && REDELIVER.test(req.path) && keyless)
        return next(withHeader(req, 'idempotency-key', `made-up-${Date.now()}-${Math.random().toString(36).slice(2)}`));
      return next(req);
    },
  },
  {
    name: 'alt-document-key-optional',
    description: "the alternate address's openapi.json marks the Idempotency-Key header optional on every operation",
    section: 'Network Connections Service Interface',
    where: 'alt',
    catches: ['base-urls.alt-identical'],
    async handle(req, next) {
      const res = await next(req);
      if (req.path !== OPENAPI || res.status !== 200) return res;
      return editJson(res, (b) =>
        everyObject(b, (node: Node) => {
          if (node.in === 'header' && String(node.name).toLowerCase() === 'idempotency-key') node.required = false;
        }),
      );
    },
  },
];
