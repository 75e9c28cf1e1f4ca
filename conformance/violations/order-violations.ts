// Violations that depend on the order of calls: each call alone answers right, so only a kit that judges every
// answer of its run against what the interface's words allow (not each call in isolation) sees them.
import { BASE_PATH } from '../../simulator/contract/versions.ts';
import { isCreation, perCore } from './idempotency-violations.ts';
import { failureOf } from './json-edit.ts';
import type { Violation } from './types.ts';

/** Per sandbox: the tenants whose last call was a successful creation. */
const justCreated = perCore(() => new Set<string>());

export const ORDER_VIOLATIONS: Violation[] = [
  {
    name: 'key-issue-after-creation-conflicts',
    description:
      "POST /idempotency-keys sent right after a tenant's successful creation is refused 409 idempotency_conflict (the key service reads the creation's lock, still held, as its own), though the call's key was never used",
    section: 'Errors',
    catches: ['idempotency.fresh-key-no-conflict', 'limits.operation-length'],
    async handle(req, next, core) {
      const tenant = req.headers['x-service-tenant'] ?? '';
      const created = justCreated(core);
      const res = await next(req);
      if (req.method === 'POST' && req.path === `${BASE_PATH}/idempotency-keys` && created.delete(tenant)) {
        // The service counted the call (its rate-limit headers stay); the gateway's answer replaces the rest.
        const refused = failureOf('idempotency_conflict', 'the key is locked by an operation in progress');
        const limits = Object.entries(res.headers).filter(([k]) => k.startsWith('x-ratelimit-'));
        return { ...refused, headers: { ...refused.headers, ...Object.fromEntries(limits) } };
      }
      if (isCreation(req) && res.status === 200) created.add(tenant);
      else created.delete(tenant);
      return res;
    },
  },
];
