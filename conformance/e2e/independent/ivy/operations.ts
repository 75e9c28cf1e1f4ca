// The handlers of the authenticated operations (each a Lambda of its own in production). They run after
// the authorizer, the tenant check, throttling and the Idempotency-Key rules (server.ts).
import type { Audit } from './audit.ts';
import { checkCapability, listCapabilities, listConnectors, listProviders } from './catalog.ts';
import type { Connections } from './connections.ts';
import type { Call } from './http-kit.ts';
import { ApiError, ok, parseObject } from './http-kit.ts';
import type { Idempotency } from './idempotency.ts';
import { canonical } from './idempotency.ts';
import type { Route } from './routes.ts';
import { text } from './validate.ts';
import type { Webhooks } from './webhooks.ts';

export interface Services {
  connections: Connections;
  idempotency: Idempotency;
  webhooks: Webhooks;
  audit: Audit;
  environment: string;
}

export interface Request {
  call: Call;
  route: Route;
  params: Record<string, string>;
  clientId: string;
  tenant: string;
  raw: string;
}

/** Runs `work` under the call's key when one was sent (required or honoured), else once. */
async function keyed(s: Services, r: Request, body: unknown, work: () => unknown): Promise<void> {
  const key = r.call.idempotencyKey;
  if (key === undefined) {
    ok(r.call, await work());
    return;
  }
  const fingerprint = `${r.route.method} ${r.route.path} ${canonical(r.params)} ${canonical(body)}`;
  const { data, replayed } = await s.idempotency.once(`${r.clientId}|${r.tenant}`, key, fingerprint, work);
  ok(r.call, data, replayed ? { replayed: true } : {});
}

export async function handle(s: Services, r: Request): Promise<void> {
  const { call, tenant } = r;
  switch (r.route.operationId) {
    case 'info':
      ok(call, { tenant, clientId: r.clientId, environment: s.environment });
      return;
    case 'listProviders':
      listProviders(call);
      return;
    case 'listConnectors':
      listConnectors(call);
      return;
    case 'listCapabilities':
      listCapabilities(call);
      return;
    case 'checkCapability': {
      const checked = checkCapability(r.raw);
      await keyed(s, r, parseObject(r.raw), () => checked.body);
      return;
    }
    case 'listConnections':
      ok(call, s.connections.list(tenant));
      return;
    case 'createConnection': {
      const input = s.connections.parse(r.raw);
      await keyed(s, r, input.body, () => {
        const connection = s.connections.create(tenant, input);
        s.audit.record(
          tenant,
          r.clientId,
          'connection.create',
          { type: 'connection', id: connection.id },
          call.requestId,
        );
        return connection;
      });
      return;
    }
    case 'createIdempotencyKey': {
      const body = parseObject(r.raw);
      const operation = text(body, 'operation', 2, 80) as string;
      await keyed(s, r, body, () => s.idempotency.issue(tenant, operation));
      return;
    }
    case 'createWebhook': {
      const body = parseObject(r.raw);
      const input = s.webhooks.parseRegistration(body);
      await keyed(s, r, body, () => {
        const created = s.webhooks.register(tenant, input);
        s.audit.record(tenant, r.clientId, 'webhook.create', { type: 'webhook', id: created.id }, call.requestId);
        return created;
      });
      return;
    }
    case 'listWebhookDeliveries':
      ok(call, s.webhooks.log(tenant, call.query.get('webhookId')));
      return;
    case 'retryWebhookDelivery': {
      const id = r.params.deliveryId ?? '';
      // The body is not read: a retry names its delivery in the path only.
      await keyed(s, r, {}, () => {
        const delivery = s.webhooks.retry(tenant, id);
        s.audit.record(tenant, r.clientId, 'webhook-delivery.retry', { type: 'webhook-delivery', id }, call.requestId);
        return delivery;
      });
      return;
    }
    case 'readAuditLog':
      ok(call, s.audit.read(tenant, call.query));
      return;
    default:
      throw new ApiError('not_found', 'No such operation.');
  }
}
