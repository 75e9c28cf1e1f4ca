import { z } from 'zod';
import { ApiError } from '../core/api-error.ts';
import type { ControlOperations } from '../control/operations.ts';
import {
  AddFaultBody,
  AdvanceClockBody,
  ReceiverCheckBody,
  SetConnectionStateBody,
  SetStatusBody,
  TriggerBody,
} from '../control/routes.ts';
import type { PlainRequest } from '../core/types.ts';
import { checkRateLimitSettings } from '../state/rate-limit-store.ts';
import type { InspectorStores } from './stores.ts';
import type { Journal } from './journal.ts';
import { journalCurl } from './journal-curl.ts';
import { auditView, connectionsView, overview, streamView, webhooksView } from './views.ts';

export interface ApiDeps {
  state: InspectorStores;
  control: ControlOperations;
  journal: Journal;
  signatureHeader: string;
}

type Handler = (
  params: Record<string, string>,
  query: Record<string, string>,
  body: unknown,
  req: PlainRequest,
  deps: ApiDeps,
) => unknown;
interface ApiRoute {
  method: string;
  path: RegExp;
  body?: z.ZodType;
  run: Handler;
}

const RateLimitBody = z.union([
  z.strictObject({ off: z.literal(true) }),
  z.strictObject({ limit: z.int().min(1), windowSeconds: z.int().min(1) }),
]);

function tenantOf(query: Record<string, string>, deps: ApiDeps): string {
  const tenant = query.tenant ?? '';
  if (!deps.state.tenants.has(tenant))
    throw new ApiError('invalid_request', {
      detail: `query parameter tenant must name a tenant of the fixtures, not "${tenant.slice(0, 60)}".`,
      hint: `Tenants: ${[...deps.state.tenants.keys()].join(', ')}.`,
    });
  return tenant;
}

const route = (method: string, path: string, run: Handler, body?: z.ZodType): ApiRoute => ({
  method,
  path: new RegExp(`^${path.replace(/:(\w+)/g, '(?<$1>[^/]+)')}$`),
  run,
  ...(body ? { body } : {}),
});

/** The page's JSON routes under /_sandbox/inspector/api: read models and the control-plane transitions. */
export const API_ROUTES: ApiRoute[] = [
  route('GET', '/overview', (_p, _q, _b, _r, d) => overview(d.state)),
  route('GET', '/journal', (_p, q, _b, _r, d) =>
    d.journal.list({ ...q, ...(q.limit ? { limit: Math.min(Number(q.limit) || 100, d.journal.capacity) } : {}) }),
  ),
  route('GET', '/journal/:seq', (p, _q, _b, req, d) => {
    const detail = d.journal.get(Number(p.seq));
    if (!detail)
      throw new ApiError('not_found', {
        detail: `No journal entry ${p.seq}: it never existed or is older than the newest ${d.journal.capacity}.`,
      });
    return { ...detail, curl: journalCurl(detail, req.origin ?? 'http://127.0.0.1:4010') };
  }),
  route('GET', '/connections', (_p, q, _b, _r, d) => connectionsView(d.state, tenantOf(q, d))),
  route('GET', '/webhooks', (_p, q, _b, _r, d) => webhooksView(d.state, tenantOf(q, d), d.signatureHeader)),
  route('GET', '/stream', (_p, _q, _b, _r, d) => streamView(d.state)),
  route('GET', '/audit', (_p, q, _b, _r, d) => auditView(d.state, tenantOf(q, d))),
  route(
    'POST',
    '/connections/:id/state',
    (p, _q, b, _r, d) => d.control.setConnectionState(p.id!, (b as { state: 'active' }).state, 'inspector'),
    SetConnectionStateBody,
  ),
  route('POST', '/deliveries/:id/redeliver', (p, _q, _b, _r, d) => redeliver(p.id!, d)),
  route(
    'POST',
    '/clock/advance',
    (_p, _q, b, _r, d) => d.control.advanceClock((b as { seconds: number }).seconds),
    AdvanceClockBody,
  ),
  route('POST', '/faults', (_p, _q, b, _r, d) => d.control.addFault(b as never), AddFaultBody),
  route('DELETE', '/faults', (_p, _q, _b, _r, d) => d.control.clearFaults()),
  route(
    'POST',
    '/rate-limit',
    (_p, _q, b, _r, d) => {
      const settings =
        'off' in (b as object) ? false : checkRateLimitSettings(b as { limit: number; windowSeconds: number });
      d.state.rateLimits.configure(settings);
      return { rateLimit: d.state.rateLimits.settings() };
    },
    RateLimitBody,
  ),
  route('GET', '/client-report', (_p, q, _b, _r, d) =>
    d.control.clientReport({ ...(q.client ? { client: q.client } : {}), ...(q.tenant ? { tenant: q.tenant } : {}) }),
  ),
  route('POST', '/receiver-check', (_p, _q, b, _r, d) => d.control.receiverCheck(b as never), ReceiverCheckBody),
  route('POST', '/trigger', (_p, _q, b, _r, d) => d.control.trigger(b as never), TriggerBody),
  route('POST', '/status', (_p, _q, b, _r, d) => d.control.setStatus(b as never), SetStatusBody),
  route('POST', '/reset', async (_p, _q, _b, _r, d) => {
    d.journal.clear();
    return d.control.reset();
  }),
];

/** Starts a new sequence of attempts, exactly as POST …/deliveries/{id}/redeliver does for the tenant. */
function redeliver(id: string, d: ApiDeps) {
  const existing = d.state.dispatcher.log.get(id);
  const receiver = existing && d.state.receivers.get(existing.tenant, existing.receiverId);
  if (!existing || !receiver) throw new ApiError('not_found', { detail: `No delivery ${id.slice(0, 60)} in the log.` });
  const delivery = d.state.dispatcher.redeliver(id, receiver)!;
  d.state.events.emit({
    type: 'webhook.redelivery_requested',
    tenant: receiver.tenant,
    actor: 'sandbox-admin',
    requestId: 'inspector',
    at: d.state.clock.now(),
    target: { type: 'delivery', id },
    data: { webhookId: receiver.id, deliveryId: id },
  });
  return { id: delivery.id, status: delivery.status, sequences: delivery.sequences };
}
