// Violations of a gateway or an older route in front of one place only: the alternate address's body parser and
// query reader, the earlier version's stream resumption, the second tenant's re-trigger. The main address under
// the current version for the first tenant stays right.
import { BASE_PATH, SUPPORTED_VERSIONS } from '../../simulator/contract/versions.ts';
import { defaultAccess } from './default-access.ts';
import { failureOf } from './json-edit.ts';
import type { Violation } from './types.ts';

const EARLIER = SUPPORTED_VERSIONS[1] ?? '2026-06-12';
const REDELIVER = new RegExp(`^${BASE_PATH}/webhooks/[^/]+/deliveries/[^/]+/redeliver$`);
const CONNECTOR_FILTERS = ['capability', 'providerId', 'category'];

export const GATEWAY_VIOLATIONS: Violation[] = [
  {
    name: 'alt-json-charset-refused',
    description:
      "at the alternate address a POST labelled application/json; charset=utf-8 is refused 400 invalid_request (that gateway's body parser matches the media type exactly)",
    section: 'POST /api/public/v1/capabilities',
    where: 'alt',
    catches: ['requests.json-with-charset'],
    async handle(req, next) {
      const type = req.headers['content-type'] ?? '';
      return req.method === 'POST' && /charset/i.test(type)
        ? failureOf('invalid_request', 'The body must be JSON.')
        : next(req);
    },
  },
  {
    name: 'alt-connectors-one-filter-only',
    description:
      'at the alternate address GET /connectors with two filters at once is refused 400 invalid_request (that gateway maps one query parameter to its search index)',
    section: 'GET /api/public/v1/connectors',
    where: 'alt',
    catches: ['catalog.filters'],
    async handle(req, next) {
      const given = CONNECTOR_FILTERS.filter((f) => req.query[f] !== undefined);
      return req.method === 'GET' && req.path === `${BASE_PATH}/connectors` && given.length > 1
        ? failureOf('invalid_request', 'Only one filter is allowed.')
        : next(req);
    },
  },
  {
    name: 'earlier-version-last-event-id-repeats',
    description:
      'a stream resumed with Last-Event-ID under Service-Version 2026-06-12 starts with the message named, not the one after it (that version read the header as the first number wanted)',
    section: 'Events',
    catches: ['sse.resume-last-event-id'],
    async handle(req, next) {
      const last = Number(req.headers['last-event-id']);
      const earlier = req.headers['service-version'] === EARLIER && req.path === `${BASE_PATH}/stream`;
      return earlier && Number.isSafeInteger(last) && last > 0
        ? next({ ...req, headers: { ...req.headers, 'last-event-id': String(last - 1) } })
        : next(req);
    },
  },
  {
    name: 'second-tenant-redelivery-answered-202',
    description:
      "for a tenant other than the first, triggering a logged delivery again answers 202 with the success envelope (that tenant's re-trigger is queued by another service)",
    section: 'Endpoints',
    catches: ['webhooks.redelivery'],
    async handle(req, next, core) {
      const res = await next(req);
      const tenant = req.headers['x-service-tenant'];
      if (req.method !== 'POST' || !REDELIVER.test(req.path) || res.status !== 200) return res;
      return tenant && tenant !== (await defaultAccess(core)).tenant ? { ...res, status: 202 } : res;
    },
  },
  {
    name: 'alt-issued-key-refused',
    description:
      "at the alternate address a creation under a key POST /idempotency-keys issued (idk_…) is refused 400 invalid_request (that gateway's key check predates the underscore in issued keys)",
    section: 'Limits',
    where: 'alt',
    catches: ['idempotency.key-result', 'places.scenario-alike'],
    async handle(req, next) {
      const key = req.headers['idempotency-key'] ?? '';
      return req.method === 'POST' && key.startsWith('idk_')
        ? failureOf('invalid_request', 'Idempotency-Key: letters, digits, dot, colon and hyphen only.')
        : next(req);
    },
  },
];
