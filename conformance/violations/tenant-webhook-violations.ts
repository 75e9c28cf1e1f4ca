// Violations of the webhook rules for a tenant other than the first only: its registrations, the keys they
// are issued and the signatures of its deliveries. The first tenant's receivers stay right, so a kit that
// registers receivers for the first tenant alone sees nothing.
import { BASE_PATH } from '../../simulator/contract/versions.ts';
import { signWebhook } from '../../simulator/index.ts';
import { defaultAccess } from './default-access.ts';
import { editJson, failureOf, jsonBodyOf } from './json-edit.ts';
import type { Violation } from './types.ts';

const WEBHOOKS = `${BASE_PATH}/webhooks`;
const REDELIVER = new RegExp(`^${WEBHOOKS}/[^/]+/deliveries/[^/]+/redeliver$`);
const DELIVERY_LOG = new RegExp(`^${WEBHOOKS}/[^/]+/deliveries$`);
const isRegistration = (req: { method: string; path: string }) => req.method === 'POST' && req.path === WEBHOOKS;

/** The signing keys issued to the other tenants' receivers (the signer sees only the key). */
const otherTenantKeys = new Set<string>();

/** How late the other tenants' worker stamps its signatures (its clock, or a queue it waits in). */
const LATE_S = 420;

type Data = { signingSecret?: unknown } | undefined;

export const TENANT_WEBHOOK_VIOLATIONS: Violation[] = [
  {
    name: 'second-tenant-multi-event-refused',
    description:
      'for a tenant other than the first, a registration naming more than one event is refused 400 invalid_request (that tenant is on an older plan table that allows one event per receiver)',
    section: 'POST /api/public/v1/webhooks (appears in a sample call only)',
    catches: ['webhooks.registration-forms', 'webhooks.tenant-deliveries'],
    async handle(req, next, core) {
      const tenant = req.headers['x-service-tenant'];
      if (!isRegistration(req) || !tenant || tenant === (await defaultAccess(core)).tenant) return next(req);
      const events = jsonBodyOf(req)?.events;
      return Array.isArray(events) && events.length > 1
        ? failureOf('invalid_request', 'events: at most 1 item')
        : next(req);
    },
  },
  {
    name: 'second-tenant-masked-signing-key',
    description:
      "for a tenant other than the first, the registration answer shows the signing key masked (all but its last four characters starred): that tenant's answers go through a redacting serializer",
    section: 'POST /api/public/v1/webhooks (appears in a sample call only)',
    catches: ['webhooks.tenant-deliveries'],
    async handle(req, next, core) {
      const res = await next(req);
      const tenant = req.headers['x-service-tenant'];
      if (!isRegistration(req) || res.status !== 200 || !tenant || tenant === (await defaultAccess(core)).tenant)
        return res;
      return editJson(res, (b) => {
        const data = b.data as Data;
        if (data && typeof data.signingSecret === 'string')
          data.signingSecret = `${'*'.repeat(data.signingSecret.length - 4)}${data.signingSecret.slice(-4)}`;
      });
    },
  },
  {
    name: 'second-tenant-late-signature',
    description: `for a tenant other than the first, deliveries are signed with a t ${LATE_S} s in the past (its deliveries wait in another queue that stamps them when queued), correctly signed over that t`,
    section: 'Webhooks',
    catches: ['webhooks.tenant-deliveries'],
    async handle(req, next, core) {
      const res = await next(req);
      const tenant = req.headers['x-service-tenant'];
      if (isRegistration(req) && res.status === 200 && tenant && tenant !== (await defaultAccess(core)).tenant) {
        const key = (JSON.parse(res.body ?? '{}') as { data?: Data }).data?.signingSecret;
        if (typeof key === 'string') otherTenantKeys.add(key);
      }
      return res;
    },
    webhooks: {
      sign: (body, secret, t) => signWebhook(body, secret, otherTenantKeys.has(secret) ? t - LATE_S : t),
    },
  },
  {
    name: 'second-tenant-redelivery-answer-without-ok',
    description:
      "for a tenant other than the first, triggering a logged delivery again answers 200 without the envelope's ok (that tenant's answers pass a serializer that drops booleans it thinks default)",
    section: 'Success envelope (every JSON success response)',
    catches: ['envelope.beyond-the-table'],
    async handle(req, next, core) {
      const res = await next(req);
      const tenant = req.headers['x-service-tenant'];
      if (req.method !== 'POST' || !REDELIVER.test(req.path) || res.status !== 200) return res;
      if (!tenant || tenant === (await defaultAccess(core)).tenant) return res;
      return editJson(res, (b) => {
        delete b.ok;
      });
    },
  },
  {
    name: 'second-tenant-redelivery-not-found',
    description:
      "for a tenant other than the first, triggering a delivery its own log lists again answers 404 not_found (the redelivery worker looks deliveries up under the first tenant's partition)",
    section: 'Webhooks',
    catches: ['webhooks.redelivery'],
    async handle(req, next, core) {
      const tenant = req.headers['x-service-tenant'];
      if (req.method !== 'POST' || !REDELIVER.test(req.path)) return next(req);
      if (!tenant || tenant === (await defaultAccess(core)).tenant) return next(req);
      return failureOf('not_found', 'The entry does not exist.');
    },
  },
  {
    name: 'delivery-log-ids-prefixed',
    description:
      'the delivery log names each delivery by its id with a prefix of the read model (log:<id>), which the redelivery route does not take (404); the delivery id header carries the plain id',
    section: 'Webhooks',
    catches: ['webhooks.redelivery'],
    async handle(req, next) {
      const res = await next(req);
      if (req.method !== 'GET' || !DELIVERY_LOG.test(req.path) || res.status !== 200) return res;
      return editJson(res, (b) => {
        const list = (b.data as { deliveries?: { id?: unknown }[] } | undefined)?.deliveries;
        for (const d of Array.isArray(list) ? list : []) if (typeof d?.id === 'string') d.id = `log:${d.id}`;
      });
    },
  },
];
