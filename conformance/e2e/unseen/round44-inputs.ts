import type { UnseenViolation } from './proxy.ts';
import { home, isCreate, P, refuse } from './proxy-helpers.ts';
import { altSecond, earlier, isSecond, type Rec } from './round44-common.ts';

/** Round 44, part 2: inputs accepted or refused wrongly. */
const bodyOf = (b: unknown) => (b && typeof b === 'object' ? (b as Rec) : {});

export const ROUND44_INPUTS: UnseenViolation[] = [
  {
    name: 'alt-second-tenant-three-character-operation-refused',
    statement:
      'POST /api/public/v1/idempotency-keys: operation (string, required, length 2 to 80) (a second tenant’s short operation under {alt_base_url})',
    answer(c, a) {
      // The partner key service at the alternate region validates operation against "xxxx.yyyy" names.
      const hit = altSecond(c);
      const op = bodyOf(c.body).operation;
      if (hit && c.method === 'POST' && c.path === P('/idempotency-keys') && typeof op === 'string' && op.length <= 8)
        refuse(a, 400, 'invalid_request', 'operation is too short.');
    },
  },
  {
    name: 'earlier-version-capability-item-of-120-refused',
    statement:
      'Limits: capabilities in connection creation | 1 to 24 items, each length 2 to 120 (an item of exactly 120 under Service-Version 2026-06-12)',
    answer(c, a) {
      // The 2026-06-12 validator checks item length with < 120 instead of <= 120.
      home(c);
      const caps = bodyOf(c.body).capabilities;
      if (!earlier(c) || !isCreate(c) || !Array.isArray(caps)) return;
      if (caps.some((x) => typeof x === 'string' && x.length >= 100))
        refuse(a, 400, 'invalid_request', 'capabilities: item too long.');
    },
  },
  {
    name: 'alt-second-tenant-changed-content-served-as-replay',
    statement:
      'POST /api/public/v1/connections: The same key with different content yields idempotency_conflict (a second tenant under {alt_base_url})',
    answer(c, a) {
      // The partner replay store at the alternate region keys on the idempotency key alone.
      const hit = altSecond(c);
      const key = c.headers['idempotency-key'];
      if (!hit || !isCreate(c) || !key) return;
      const first = c.memory.get(`r43b-first-${key}`) as typeof a | undefined;
      if (!first && a.status === 200) c.memory.set(`r43b-first-${key}`, structuredClone(a));
      else if (first && a.json.error?.code === 'idempotency_conflict') {
        a.status = 200;
        a.json = { ...structuredClone(first.json), meta: { ...a.json.meta, replayed: true, idempotencyKey: key } };
      }
    },
  },
  {
    name: 'alt-second-tenant-provider-category-ignored',
    statement:
      'GET /api/public/v1/providers: category | restricts to one category (a second tenant under {alt_base_url})',
    request(c) {
      // The partner catalog route at the alternate region was wired without its query binding.
      const hit = altSecond(c);
      if (hit && c.method === 'GET' && c.path === P('/providers')) c.search.delete('category');
      return undefined;
    },
  },
  {
    name: 'earlier-version-development-check-refused',
    statement:
      'POST /api/public/v1/capabilities: environment | Environment (development, sandbox, pilot, production) (under Service-Version 2026-06-12)',
    answer(c, a) {
      // The 2026-06-12 enum was written before "development" joined the environment list.
      home(c);
      if (
        earlier(c) &&
        c.method === 'POST' &&
        c.path === P('/capabilities') &&
        bodyOf(c.body).environment === 'development'
      )
        refuse(a, 400, 'invalid_request', 'environment is not allowed.');
    },
  },
  {
    name: 'second-tenant-webhook-registration-forbidden',
    statement:
      'Webhooks: A webhook receiver is registered with POST /api/public/v1/webhooks (a second tenant of the same access)',
    answer(c, a) {
      // The webhook service checks the access's release against the token's default tenant only.
      const second = isSecond(c);
      if (second && c.method === 'POST' && c.path === P('/webhooks') && a.status === 200)
        refuse(a, 403, 'forbidden', 'The access may not perform the action.');
    },
  },
  {
    name: 'alt-second-tenant-provider-id-filter-refused',
    statement: 'GET /api/public/v1/connectors: Query parameter providerId | no (a second tenant under {alt_base_url})',
    answer(c, a) {
      // The partner connector route at the alternate region only whitelists capability and category.
      const hit = altSecond(c);
      if (hit && c.method === 'GET' && c.path === P('/connectors') && c.search.has('providerId'))
        refuse(a, 400, 'invalid_request', 'Unknown query parameter providerId.');
    },
  },
];
