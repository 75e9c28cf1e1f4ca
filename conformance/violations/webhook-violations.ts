import { LIMITS } from '../../simulator/contract/limits.ts';
import { BASE_PATH } from '../../simulator/contract/versions.ts';
import type { Core, PlainRequest, PlainResponse } from '../../simulator/index.ts';
import { signWebhook } from '../../simulator/index.ts';
import { must } from '../runner/invariant.ts';
import { editJson, jsonBodyOf, withJsonBody } from './json-edit.ts';
import type { Violation } from './types.ts';

const WEBHOOKS = `${BASE_PATH}/webhooks`;
const ONE = new RegExp(`^${WEBHOOKS}/([^/]+)$`);
const DELIVERIES = new RegExp(`^${WEBHOOKS}/([^/]+)/deliveries$`);
const REDELIVER = new RegExp(`^${WEBHOOKS}/([^/]+)/deliveries/([^/]+)/redeliver$`);

const get = (req: PlainRequest, re: RegExp) => (req.method === 'GET' ? re.exec(req.path) : null);

/** The event a delivery names, renamed to another one (body fields and the header that names it). */
const OTHER_EVENT = 'order.paid';
function renamedEvent(body: string): string {
  const json = JSON.parse(body) as Record<string, unknown>;
  for (const k of ['type', 'event', 'name']) if (typeof json[k] === 'string') json[k] = OTHER_EVENT;
  return JSON.stringify(json);
}

/** Per core: the first answer each Idempotency-Key of POST /webhooks got (a key-value cache keyed by the key alone). */
const firstByKey = new WeakMap<Core, Map<string, PlainResponse>>();

/** The first tenant to register a receiver and its newest key, per sandbox (per run). */
const firstTenantKeys = new WeakMap<object, { tenant: string; key: string }>();

/** The tenants that registered receivers, per sandbox (per run). */
const redeliveryTenants = new WeakMap<object, Set<string>>();

/** Violations of webhook receivers, signatures, the delivery log and redelivery. */
export const WEBHOOK_VIOLATIONS: Violation[] = [
  {
    name: 'alt-registration-without-key',
    description:
      'at the alternate base URL, registering a receiver answers without its signing key (the key is issued, but that gateway drops the field)',
    section: 'POST /api/public/v1/webhooks (appears in a sample call only)',
    catches: ['webhooks.alt-registration'],
    async handle(req, next, _core, base) {
      const res = await next(req);
      if (base !== 'alt' || req.method !== 'POST' || req.path !== WEBHOOKS || res.status !== 200) return res;
      return editJson(res, (b) => {
        if (b.data) delete b.data.signingSecret;
      });
    },
  },
  {
    name: 'webhook-registration-keeps-first-event',
    description:
      'POST /webhooks registers the receiver for the first event of its list only (a column declared for one name) and answers with that one',
    section: 'Webhooks',
    catches: ['webhooks.registration', 'webhooks.delivery-arrives'],
    handle(req, next) {
      const body = req.method === 'POST' && req.path === WEBHOOKS ? jsonBodyOf(req) : undefined;
      if (!body || !Array.isArray(body.events) || body.events.length < 2) return next(req);
      return next(withJsonBody(req, { ...body, events: body.events.slice(0, 1) }));
    },
  },
  {
    name: 'webhook-registration-201',
    description: 'registering a receiver answers 201 instead of the 200 every success uses',
    section: 'Endpoints',
    catches: ['webhooks.registration', 'responses.envelope'],
    async handle(req, next) {
      const res = await next(req);
      return req.method === 'POST' && req.path === WEBHOOKS && res.status === 200 ? { ...res, status: 201 } : res;
    },
  },
  {
    name: 'webhook-key-ignores-content',
    description:
      'POST /webhooks with the key of an earlier registration and another url replays the earlier registration instead of 409 idempotency_conflict',
    section: 'Errors',
    catches: ['webhooks.registration-keys'],
    async handle(req, next, core) {
      const key = req.headers['idempotency-key'];
      if (req.method !== 'POST' || req.path !== WEBHOOKS || !key) return next(req);
      const seen = firstByKey.get(core) ?? new Map<string, PlainResponse>();
      firstByKey.set(core, seen);
      const earlier = seen.get(key);
      // A gateway's response cache keyed by the header alone: the body is never compared.
      if (earlier)
        return editJson(earlier, (b) => {
          b.meta = { ...b.meta, replayed: true };
        });
      const res = await next(req);
      if (res.status === 200) seen.set(key, res);
      return res;
    },
  },
  {
    name: 'webhook-events-string-wrapped',
    description:
      'POST /webhooks takes events sent as one string, wrapping it into a list, instead of 400 invalid_request',
    section: 'POST /api/public/v1/webhooks (appears in a sample call only)',
    catches: ['webhooks.registration-body'],
    handle(req, next) {
      const body = req.method === 'POST' && req.path === WEBHOOKS ? jsonBodyOf(req) : undefined;
      return next(typeof body?.events === 'string' ? withJsonBody(req, { ...body, events: [body.events] }) : req);
    },
  },
  {
    name: 'webhook-secret-shown-again',
    description: 'the signing key is shown again when receivers are read back (GET /webhooks, GET /webhooks/{id})',
    section: 'POST /api/public/v1/webhooks (appears in a sample call only)',
    catches: ['webhooks.secret-once'],
    async handle(req, next, core) {
      const res = await next(req);
      const tenant = req.headers['x-service-tenant'];
      const listing = req.method === 'GET' && req.path === WEBHOOKS;
      if (res.status !== 200 || !tenant || !(listing || get(req, ONE))) return res;
      const secrets = new Map((await core.state.receivers.list(tenant)).map((r) => [r.id, r.secret]));
      const secretOf = (r: { id?: unknown }) => secrets.get(String(r.id));
      return editJson(res, (b) => {
        const records = listing
          ? ((b.data?.webhooks as { id?: unknown; signingSecret?: unknown }[] | undefined) ?? [])
          : [b.data as { id?: unknown; signingSecret?: unknown }];
        for (const r of records) r.signingSecret = secretOf(r);
      });
    },
  },
  {
    name: 'webhook-not-delivered',
    description: 'deliveries are recorded as sent but never reach the receiver',
    section: 'Webhooks',
    catches: ['webhooks.delivery-arrives'],
    webhooks: { fetch: async () => new Response(null, { status: 204 }) },
    handle: (req, next) => next(req),
  },
  {
    name: 'webhook-unsubscribed-event',
    description: `deliveries name another event (${OTHER_EVENT}) than the one the receiver registered for, correctly signed`,
    section: 'Webhooks',
    catches: ['webhooks.subscribed-event'],
    webhooks: {
      // Signed over the body as sent (renamed), so only the event differs.
      sign: (body, secret, t) =>
        signWebhook(renamedEvent(typeof body === 'string' ? body : Buffer.from(body).toString('utf8')), secret, t),
      async fetch(url, init) {
        const headers = { ...(init?.headers as Record<string, string>) };
        for (const k of Object.keys(headers)) if (/event/i.test(k)) headers[k] = OTHER_EVENT;
        // undici's own fetch: MSW in the same process does not intercept it.
        const { fetch: undiciFetch } = await import('undici');
        return (await undiciFetch(url as string, {
          ...(init as object),
          headers,
          body: renamedEvent(String(init?.body)),
        })) as unknown as Response;
      },
    },
    handle: (req, next) => next(req),
  },
  {
    name: 'webhook-wrong-signature',
    description: "deliveries are signed with a key other than the receiver's signing key",
    section: 'Webhooks',
    // A delivery triggered again is signed the same wrong way (webhooks.redelivery verifies it too).
    catches: ['webhooks.signature', 'webhooks.redelivery'],
    webhooks: { sign: (body, secret, t) => signWebhook(body, `${secret}-not-this-one`, t) },
    handle: (req, next) => next(req),
  },
  {
    name: 'webhook-stale-timestamp',
    description: `deliveries carry a t ${LIMITS.webhookToleranceSeconds + 100} s in the past (correctly signed), outside the ${LIMITS.webhookToleranceSeconds} s window`,
    section: 'Webhooks',
    catches: ['webhooks.timestamp', 'webhooks.redelivery'],
    webhooks: { sign: (body, secret, t) => signWebhook(body, secret, t - LIMITS.webhookToleranceSeconds - 100) },
    handle: (req, next) => next(req),
  },
  {
    name: 'delivery-log-missing',
    description: 'the delivery log of a receiver lists no deliveries',
    section: 'Webhooks',
    catches: ['webhooks.delivery-log'],
    async handle(req, next) {
      const res = await next(req);
      if (!get(req, DELIVERIES) || res.status !== 200) return res;
      return editJson(res, (b) => {
        if (!b.data) return;
        b.data.deliveries = [];
        b.data.count = 0;
      });
    },
  },
  {
    name: 'redelivery-of-unknown-acknowledged',
    description:
      'triggering a delivery id that names no delivery answers 200 with a pending delivery of that id (a queue that takes any id) instead of 404',
    section: 'Webhooks',
    catches: ['webhooks.redelivery'],
    async handle(req, next) {
      const res = await next(req);
      const m = req.method === 'POST' ? REDELIVER.exec(req.path) : null;
      if (!m || res.status !== 404) return res;
      const answered = editJson(res, (b) => {
        b.ok = true;
        delete b.error;
        b.data = { id: decodeURIComponent(m[2] ?? ''), webhookId: m[1], status: 'pending', attempts: [] };
      });
      return { ...answered, status: 200 };
    },
  },
  {
    name: 'redelivery-across-tenants',
    description:
      "triggering a delivery again under another tenant of the access triggers the owner's delivery (the redelivery looks the delivery up by id alone)",
    section: 'Webhooks',
    catches: ['webhooks.redelivery'],
    async handle(req, next, core) {
      // Looked up by id alone: a delivery the caller's tenant does not have is found under any tenant that
      // registered a receiver in this sandbox.
      const tenants = redeliveryTenants.get(core) ?? new Set<string>();
      redeliveryTenants.set(core, tenants);
      const tenant = req.headers['x-service-tenant'] ?? '';
      if (req.method === 'POST' && req.path === WEBHOOKS && tenant) tenants.add(tenant);
      const res = await next(req);
      if (req.method !== 'POST' || !REDELIVER.test(req.path) || res.status !== 404) return res;
      for (const owner of tenants) {
        if (owner === tenant) continue;
        const there = await next({ ...req, headers: { ...req.headers, 'x-service-tenant': owner } });
        if (there.status === 200) return there;
      }
      return res;
    },
  },
  {
    name: 'webhook-key-of-first-tenant',
    description:
      "a second tenant's receiver registration shows the signing key of the first tenant's newest receiver (the key looked up by the token's first tenant); its deliveries are signed with its own",
    section: 'POST /api/public/v1/webhooks (appears in a sample call only)',
    // webhooks.tenant-deliveries: the key shown does not sign that tenant's deliveries.
    catches: ['webhooks.registration-keys', 'webhooks.tenant-deliveries'],
    async handle(req, next, core) {
      const res = await next(req);
      if (req.method !== 'POST' || req.path !== WEBHOOKS || res.status !== 200) return res;
      const keys = firstTenantKeys.get(core) ?? { tenant: '', key: '' };
      firstTenantKeys.set(core, keys);
      const tenant = req.headers['x-service-tenant'] ?? '';
      return editJson(res, (b) => {
        const data = b.data as { signingSecret?: unknown } | undefined;
        if (typeof data?.signingSecret !== 'string') return;
        if (!keys.tenant || keys.tenant === tenant) Object.assign(keys, { tenant, key: data.signingSecret });
        else data.signingSecret = keys.key;
      });
    },
  },
  {
    name: 'delivery-log-meta-without-version',
    description:
      "the delivery log (an endpoint beyond the interface's table) answers its success envelope's meta without version (its controller builds meta by hand)",
    section: 'Success envelope (every JSON success response)',
    catches: ['envelope.beyond-the-table'],
    async handle(req, next) {
      const res = await next(req);
      if (req.method !== 'GET' || !/\/deliveries$/.test(req.path) || res.status !== 200) return res;
      return editJson(res, (b) => {
        if (b.meta && typeof b.meta === 'object') delete (b.meta as { version?: unknown }).version;
      });
    },
  },
  {
    name: 'redelivery-not-sent',
    description: 'triggering a delivery again answers 200 with the logged delivery but sends nothing',
    section: 'Webhooks',
    catches: ['webhooks.redelivery', 'webhooks.redelivery-any'],
    async handle(req, next) {
      const m = req.method === 'POST' ? REDELIVER.exec(req.path) : null;
      if (!m) return next(req);
      const list = await next({
        ...req,
        method: 'GET',
        path: `${WEBHOOKS}/${m[1]}/deliveries`,
        body: undefined,
        query: {},
      });
      return editJson(list, (b) => {
        b.data =
          ((b.data?.deliveries as { id?: string }[] | undefined) ?? []).find(
            (d) => d.id === decodeURIComponent(must(m[2], 'REDELIVER captures the delivery id')),
          ) ?? {};
      });
    },
  },
];
