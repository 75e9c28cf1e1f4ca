// Violations in refusals a run rarely provokes, where a deployment shows more than the failure envelope should:
// a conflict's hint quoting what the first call was given, a listed entry answered as not existing.
import { BASE_PATH } from '../../simulator/contract/versions.ts';
import type { Core } from '../../simulator/index.ts';
import { editJson, failureOf, jsonBodyOf, withJsonBody } from './json-edit.ts';
import type { Violation } from './types.ts';

const WEBHOOKS = `${BASE_PATH}/webhooks`;
/** Per sandbox: the last connector the catalog lists. */
const lastConnector = new WeakMap<Core, string>();
/** Per sandbox: each registration key's first answer's signing key. */
const keysByIdempotencyKey = new WeakMap<Core, Map<string, string>>();

export const REFUSAL_VIOLATIONS: Violation[] = [
  {
    name: 'last-connector-check-not-found',
    description:
      'a capability check for the last connector GET /connectors lists answers 404 not_found: the decision table is loaded with an off-by-one and misses the last row',
    section: 'POST /api/public/v1/capabilities',
    catches: ['capabilities.decision-for-asked'],
    async handle(req, next, core) {
      const asked = req.method === 'POST' && req.path === `${BASE_PATH}/capabilities` ? jsonBodyOf(req) : undefined;
      if (!asked) return next(req);
      if (!lastConnector.has(core)) {
        const list = await next({ ...req, method: 'GET', path: `${BASE_PATH}/connectors`, query: {}, body: undefined });
        editJson(list, (b) => {
          const connectors = b.data?.connectors;
          const id = Array.isArray(connectors) ? (connectors.at(-1) as { id?: unknown } | undefined)?.id : undefined;
          if (typeof id === 'string') lastConnector.set(core, id);
        });
      }
      // Asked as the table has it: a connector it does not hold, answered by the service's own refusal.
      return asked.connectorId === lastConnector.get(core)
        ? next(withJsonBody(req, { ...asked, connectorId: `${asked.connectorId}-missing-row` }))
        : next(req);
    },
  },
  {
    name: 'registration-conflict-hint-quotes-signing-key',
    description:
      'POST /webhooks with the key of an earlier registration and another url answers 409 idempotency_conflict whose hint quotes the earlier receiver\'s signing key ("the key was used for the receiver signed with …")',
    section: 'Errors',
    catches: ['channels.no-secrets-or-internals'],
    async handle(req, next, core) {
      const res = await next(req);
      if (req.method !== 'POST' || req.path !== WEBHOOKS || !jsonBodyOf(req)) return res;
      const known = keysByIdempotencyKey.get(core) ?? new Map<string, string>();
      keysByIdempotencyKey.set(core, known);
      const key = req.headers['idempotency-key'] ?? '';
      if (res.status === 200)
        editJson(res, (b) => {
          const secret = (b.data as { signingSecret?: unknown } | undefined)?.signingSecret;
          if (typeof secret === 'string' && !known.has(key)) known.set(key, secret);
        });
      const first = known.get(key);
      if (res.status !== 409 || !first) return res;
      return editJson(res, (b) => {
        if (b.error) b.error.hint = `The key was used for the receiver signed with ${first}; use a new key.`;
      });
    },
  },
  {
    name: 'critical-denial-answered-forbidden',
    description:
      'critical capabilities pass an extra entitlement guard whose refusal is mapped to the permission error: a creation booking a critical capability that is not released answers 403 forbidden instead of 409 capability_denied',
    section: 'Errors',
    catches: ['errors.capability-denied'],
    async handle(req, next, core) {
      const res = await next(req);
      const asked = req.method === 'POST' && req.path === `${BASE_PATH}/connections` ? jsonBodyOf(req) : undefined;
      if (res.status !== 409 || !res.body?.includes('"capability_denied"') || !Array.isArray(asked?.capabilities))
        return res;
      const critical = new Set(core.state.fixtures.capabilities.filter((c) => c.critical).map((c) => c.id));
      if (!(asked.capabilities as unknown[]).some((c) => critical.has(String(c)))) return res;
      const refusal = failureOf('forbidden', 'The access may not perform the action.');
      refusal.headers = { ...res.headers, ...refusal.headers };
      return refusal;
    },
  },
];
