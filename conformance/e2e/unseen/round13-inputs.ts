import type { ProxyCall, UnseenViolation } from './proxy.ts';
import { isCreate, P } from './proxy-helpers.ts';

/**
 * Round 13 of the unseen violations, part 2: inputs accepted that the interface refuses — an unknown
 * environment on checks defaulted, a webhook's events given as one string, a creation without any
 * scope label, a one-character capability checked, 25 capabilities cut to 24, a check without a
 * capability, and a key request without an operation. Each rewrites the request so the simulator accepts it.
 */
type Rec = Record<string, any>;
const ENVIRONMENTS = new Set(['development', 'sandbox', 'pilot', 'production']);
const isCheck = (c: ProxyCall) => c.method === 'POST' && c.path === P('/capabilities');
const body = (c: ProxyCall) =>
  c.body && typeof c.body === 'object' && !Array.isArray(c.body) ? (c.body as Rec) : undefined;
/** Replaces the body the simulator is sent (the proxy forwards a new object). */
const rewrite = (c: ProxyCall, edit: (b: Rec) => void) => {
  const b = body(c);
  if (!b) return;
  const next = { ...b };
  edit(next);
  c.body = next;
};

export const ROUND13_INPUTS: UnseenViolation[] = [
  {
    name: 'check-unknown-environment-defaulted',
    statement:
      'POST /api/public/v1/capabilities: environment | string | no | Environment; default sandbox (invalid_request: wrong data type)',
    request(c) {
      // The environment parser falls back to the default for any value it does not know.
      const b = body(c);
      if (isCheck(c) && typeof b?.environment === 'string' && !ENVIRONMENTS.has(b.environment))
        rewrite(c, (x) => {
          delete x.environment;
        });
      return undefined;
    },
  },
  {
    name: 'webhook-events-string-accepted',
    statement:
      'POST /api/public/v1/webhooks: Body: url (string, the receiver address), events (array of event-name strings)',
    request(c) {
      // A lenient body parser wraps a lone value into a list ("order.paid" → ["order.paid"]).
      const b = body(c);
      if (c.method === 'POST' && c.path === P('/webhooks') && typeof b?.events === 'string')
        rewrite(c, (x) => {
          x.events = String(x.events)
            .split(',')
            .map((s) => s.trim())
            .filter((s) => s.length > 0);
          if (x.events.length === 0) x.events = ['order.created'];
        });
      return undefined;
    },
  },
  {
    name: 'creation-scope-label-defaulted',
    statement:
      'POST /api/public/v1/connections: Body (JSON), all fields required: … scopeLabel | string | length 2 to 120',
    request(c) {
      // A missing scope label is filled with the connector's id so the venue list "always has a name".
      const b = body(c);
      if (
        isCreate(c) &&
        b &&
        b.scopeLabel === undefined &&
        b.restaurantId === undefined &&
        typeof b.connectorId === 'string'
      )
        rewrite(c, (x) => {
          x.scopeLabel = `${x.connectorId} venue`;
        });
      return undefined;
    },
  },
  {
    name: 'check-one-character-capability-decided',
    statement: 'POST /api/public/v1/capabilities: capability | string | yes | length 2 to 120',
    request(c) {
      // The check's schema only requires a non-empty string; the lookup then finds nothing and denies.
      const b = body(c);
      if (isCheck(c) && typeof b?.capability === 'string' && b.capability.length === 1)
        rewrite(c, (x) => {
          x.capability = `${x.capability}${x.capability}-unknown`;
        });
      return undefined;
    },
  },
  {
    name: 'twenty-five-capabilities-cut-to-24',
    statement: 'Limits: capabilities in connection creation | 1 to 24 items, each length 2 to 120',
    request(c) {
      // The creation handler slices the list to the limit instead of refusing it.
      const b = body(c);
      if (isCreate(c) && Array.isArray(b?.capabilities) && b.capabilities.length > 24)
        rewrite(c, (x) => {
          x.capabilities = (x.capabilities as unknown[]).slice(0, 24);
        });
      return undefined;
    },
  },
  {
    name: 'check-without-capability-uses-first',
    statement: 'POST /api/public/v1/capabilities: capability | string | yes (invalid_request: required field missing)',
    request(c) {
      // A missing capability is treated as "the connector's first capability" by a helper meant for the UI.
      const b = body(c);
      if (isCheck(c) && b && b.capability === undefined && typeof b.connectorId === 'string')
        rewrite(c, (x) => {
          x.capability = 'orders.read';
        });
      return undefined;
    },
  },
  {
    name: 'key-issue-without-operation-defaulted',
    statement: 'POST /api/public/v1/idempotency-keys: Body (JSON): operation (string, required, length 2 to 80)',
    request(c) {
      // The key endpoint defaults the operation to a generic label when none is given.
      const b = body(c);
      if (c.method === 'POST' && c.path === P('/idempotency-keys') && (b === undefined || b.operation === undefined))
        c.body = { ...(b ?? {}), operation: 'generic.operation' };
      return undefined;
    },
  },
];
