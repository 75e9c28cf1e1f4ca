// Registrations refused in a form the interface allows: a URL allowlist that ends at the path, a key check of
// one region's own. The kit's plain registration is taken, so only webhooks.registration-forms sees them.
import { BASE_PATH } from '../../simulator/contract/versions.ts';
import { failureOf, jsonBodyOf } from './json-edit.ts';
import type { Violation } from './types.ts';

const WEBHOOKS = `${BASE_PATH}/webhooks`;

export const WEBHOOK_FORM_VIOLATIONS: Violation[] = [
  {
    name: 'webhook-url-with-query-refused',
    description:
      "the receiver URL allowlist's pattern ends at the path: a receiver address with a query string is refused 400",
    section: 'POST /api/public/v1/webhooks (appears in a sample call only)',
    catches: ['webhooks.registration-forms'],
    async handle(req, next) {
      const url = jsonBodyOf(req)?.url;
      if (req.method === 'POST' && req.path === WEBHOOKS && typeof url === 'string' && url.includes('?'))
        return failureOf('invalid_request', 'url is not an allowed receiver address');
      return next(req);
    },
  },
  {
    name: 'alt-webhook-key-leading-hyphen-refused',
    description:
      "at the alternate address POST /webhooks refuses an Idempotency-Key starting with '-' (that region's key check reads it as an option)",
    section: 'Limits',
    where: 'alt',
    catches: ['webhooks.registration-forms'],
    async handle(req, next) {
      const key = req.headers['idempotency-key'];
      if (req.method === 'POST' && req.path === WEBHOOKS && typeof key === 'string' && key.startsWith('-'))
        return failureOf('invalid_request', 'Idempotency-Key is not valid');
      return next(req);
    },
  },
  {
    name: 'state-change-subscription-answered-201',
    description:
      'a registration naming connection.state_changed is handed to another subscription service and answered 201 Created (the envelope otherwise right); the interface answers a success 200',
    section: 'Endpoints',
    catches: ['responses.envelope'],
    async handle(req, next) {
      const events = jsonBodyOf(req)?.events;
      const res = await next(req);
      const named = Array.isArray(events) && events.includes('connection.state_changed');
      return req.method === 'POST' && req.path === WEBHOOKS && named && res.status === 200
        ? { ...res, status: 201 }
        : res;
    },
  },
];
