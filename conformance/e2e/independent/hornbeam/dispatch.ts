// Authenticated operations: the route's handler once access, tenant, rate and key have been settled.
import { auditPage } from './audit.ts';
import { withKey } from './idempotency.ts';
import * as ops from './operations.ts';
import type { Route } from './routes.ts';
import type { State } from './state.ts';
import { type Answer, fail, ok } from './util.ts';
import * as hooks from './webhooks.ts';

export interface Call {
  state: State;
  route: Route;
  params: Record<string, string>;
  query: URLSearchParams;
  body: unknown;
  tenant: string;
  clientId: string;
  tokenExpiresAt: number;
  requestId: string;
  key: string | null;
}

export interface Outcome {
  answer: Answer;
  replayed?: boolean;
}

const intParam = (q: URLSearchParams, name: string, min: number, max: number, dflt: number): number | null => {
  const raw = q.get(name);
  if (raw === null) return dflt;
  if (!/^\d{1,9}$/.test(raw)) return null;
  const n = Number(raw);
  return n < min || n > max ? null : n;
};

/** Runs `exec` under the call's key when one was sent (any POST honours a key; keyed routes need one). */
async function keyed(c: Call, exec: () => Answer): Promise<Outcome> {
  if (c.key === null) return { answer: exec() };
  const scope = `${c.clientId}\u0000${c.tenant}`;
  return withKey(
    c.state,
    scope,
    c.key,
    `${c.route.method} ${c.route.id} ${JSON.stringify(c.params)}`,
    c.body ?? null,
    exec,
  );
}

export async function dispatch(c: Call): Promise<Outcome> {
  const { state, tenant, query } = c;
  switch (c.route.id) {
    case 'info':
      return {
        answer: ok({
          tenant,
          clientId: c.clientId,
          environment: 'sandbox',
          tokenExpiresAt: new Date(c.tokenExpiresAt).toISOString(),
          purpose: 'integration testing against invented data',
          owner: 'hornbeam edge platform team',
          rateLimit: { limit: state.opts.rateLimit, windowSeconds: state.opts.windowMs / 1000 },
        }),
      };
    case 'listProviders':
      return { answer: ops.listProviders(query) };
    case 'listConnectors':
      return { answer: ops.listConnectors(query) };
    case 'listCapabilities':
      return { answer: ops.listCapabilities() };
    case 'checkCapability':
      return keyed(c, () => ops.checkCapability(c.body));
    case 'listConnections':
      return { answer: ops.listConnections(state, tenant) };
    case 'createConnection': {
      const bad = ops.validateCreation(c.body);
      if (bad) return { answer: fail('invalid_request', bad, 'check the request against openapi.json') };
      const key = c.key ?? '';
      return keyed(c, () =>
        ops.createConnection(state, tenant, c.body as Record<string, unknown>, c.clientId, c.requestId, key),
      );
    }
    case 'issueIdempotencyKey':
      return keyed(c, () => ops.issueKey(c.body));
    case 'createWebhook':
      return keyed(c, () => hooks.register(state, tenant, c.body, c.clientId, c.requestId));
    case 'listWebhooks': {
      const webhooks = state.webhooks.filter((w) => w.tenant === tenant && w.active).map(hooks.publicWebhook);
      return { answer: ok({ count: webhooks.length, webhooks }) };
    }
    case 'getWebhook': {
      const w = hooks.findWebhook(state, tenant, c.params.webhookId ?? '');
      return { answer: w ? ok(hooks.publicWebhook(w)) : fail('not_found', 'no such webhook for this tenant') };
    }
    case 'deleteWebhook':
      return keyed(c, () => hooks.remove(state, tenant, c.params.webhookId ?? '', c.clientId, c.requestId));
    case 'listDeliveries':
      return { answer: hooks.deliveryLog(state, tenant, query.get('webhookId')) };
    case 'retriggerDelivery':
      return keyed(c, () => hooks.retrigger(state, tenant, c.params.deliveryId ?? '', c.clientId, c.requestId));
    case 'auditLog': {
      const max = state.opts.auditMaxLimit;
      const limit = intParam(query, 'limit', 1, max, Math.min(50, max));
      const after = intParam(query, 'after', 0, 1e9, 0);
      if (limit === null || after === null)
        return { answer: fail('invalid_request', `limit must be an integer 1 to ${max}, after an integer >= 0`) };
      const page = auditPage(state, tenant, limit, after);
      const headers: Record<string, string> = page.next ? { Link: `<${page.next}>; rel="next"` } : {};
      return { answer: { ...ok(page.data), headers } };
    }
    default:
      return { answer: fail('not_found', 'no such route') };
  }
}
