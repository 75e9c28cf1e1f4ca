import { z } from 'zod';
import { defineRoutes, type RouteDef } from '../contract/route-def.ts';
import type { ControlPort } from '../control/operations.ts';
import {
  AddFaultBody,
  AdvanceClockBody,
  ClientReportQuery,
  ReceiverCheckBody,
  SetConnectionStateBody,
  SetStatusBody,
  TriggerBody,
} from '../control/routes.ts';
import { ApiError } from '../core/api-error.ts';
import type { RequestContext, RouteContextOf } from '../core/context.ts';
import type { MountHandler } from '../core/mount.ts';
import { ok, raw, type Reply } from '../core/reply.ts';
import { SSE_HEADERS } from '../events/sse.ts';
import type { Journal } from './journal.ts';
import { journalCurl } from './journal-curl.ts';
import { createLiveSource } from './live.ts';
import { INSPECTOR_PREFIX } from './paths.ts';
import type { InspectorStores } from './stores.ts';
import { auditView, connectionsView, overview, streamView, webhooksView } from './views.ts';

/** What the inspector's API handlers use: read models of the stores, and the control operations for every change. */
export interface ApiDeps {
  state: InspectorStores;
  control: ControlPort;
  journal: Journal;
  signatureHeader: string;
}

export const RateLimitBody = z.union([
  z.strictObject({ off: z.literal(true) }),
  z.strictObject({ limit: z.int().min(1), windowSeconds: z.int().min(1) }),
]);

const API = `${INSPECTOR_PREFIX}/api`;
const TenantQuery = z.object({ tenant: z.string().optional().describe('A tenant of the fixtures') });
const api = <const R extends Omit<RouteDef, 'tags' | 'auth' | 'surface' | 'path'> & { sub: string }>({
  sub,
  ...r
}: R) => ({
  ...r,
  path: `${API}${sub}` as const,
  tags: ['inspector'],
  auth: false as const,
  surface: 'inspector' as const,
});

/**
 * The page's JSON routes under /_sandbox/inspector/api: read models and the control-plane transitions.
 * Routed and validated by the core router like the control plane (the session guard runs before).
 */
export const INSPECTOR_ROUTES = defineRoutes([
  api({ id: 'inspectorOverview', method: 'GET', sub: '/overview', purpose: 'tenants, counts, clock' }),
  api({
    id: 'inspectorJournal',
    method: 'GET',
    sub: '/journal',
    purpose: 'the request journal, newest first',
    query: z.object({
      tenant: z.string().optional(),
      status: z.string().optional(),
      path: z.string().optional(),
      limit: z.string().optional(),
    }),
  }),
  api({
    id: 'inspectorJournalEntry',
    method: 'GET',
    sub: '/journal/{seq}',
    purpose: 'one journaled call with its curl',
    params: z.object({ seq: z.string() }),
  }),
  api({
    id: 'inspectorLive',
    method: 'GET',
    sub: '/live',
    purpose: 'live updates of the page',
    kind: 'sse',
    // EventSource cannot set headers: the page's session secret comes as ?session= (checked by the session step).
    query: z.object({ session: z.string().optional() }),
  }),
  api({ id: 'inspectorConnections', method: 'GET', sub: '/connections', purpose: 'connections', query: TenantQuery }),
  api({ id: 'inspectorWebhooks', method: 'GET', sub: '/webhooks', purpose: 'receivers', query: TenantQuery }),
  api({ id: 'inspectorStream', method: 'GET', sub: '/stream', purpose: 'stream feeds' }),
  api({ id: 'inspectorAudit', method: 'GET', sub: '/audit', purpose: 'audit chain', query: TenantQuery }),
  api({
    id: 'inspectorSetConnectionState',
    method: 'POST',
    sub: '/connections/{id}/state',
    purpose: 'pause, resume or revoke a connection',
    params: z.object({ id: z.string() }),
    body: SetConnectionStateBody,
  }),
  api({
    id: 'inspectorRedeliver',
    method: 'POST',
    sub: '/deliveries/{id}/redeliver',
    purpose: 'deliver a logged delivery again',
    params: z.object({ id: z.string() }),
  }),
  api({ id: 'inspectorAdvanceClock', method: 'POST', sub: '/clock/advance', purpose: 'clock', body: AdvanceClockBody }),
  api({ id: 'inspectorAddFault', method: 'POST', sub: '/faults', purpose: 'arm a fault', body: AddFaultBody }),
  api({ id: 'inspectorClearFaults', method: 'DELETE', sub: '/faults', purpose: 'disarm every fault' }),
  api({ id: 'inspectorRateLimit', method: 'POST', sub: '/rate-limit', purpose: 'rate limit', body: RateLimitBody }),
  api({
    id: 'inspectorClientReport',
    method: 'GET',
    sub: '/client-report',
    purpose: 'client verdicts',
    query: ClientReportQuery,
  }),
  api({
    id: 'inspectorReceiverCheck',
    method: 'POST',
    sub: '/receiver-check',
    purpose: 'score a webhook receiver',
    body: ReceiverCheckBody,
  }),
  api({ id: 'inspectorTrigger', method: 'POST', sub: '/trigger', purpose: 'sample event', body: TriggerBody }),
  api({ id: 'inspectorStatus', method: 'POST', sub: '/status', purpose: 'service status', body: SetStatusBody }),
  api({ id: 'inspectorReset', method: 'POST', sub: '/reset', purpose: 'reset state and journal' }),
]);

type InspectorRoute = (typeof INSPECTOR_ROUTES)[number];
type InspectorId = InspectorRoute['id'];
/** One handler per inspector route: its context typed from the route (body, params), its value the `data`. */
type InspectorHandlers = {
  [K in InspectorId]: (ctx: RouteContextOf<Extract<InspectorRoute, { id: K }>>, d: ApiDeps) => unknown;
};

const str = (v: unknown) => (typeof v === 'string' ? v : undefined);

function tenantOf(ctx: RequestContext, d: ApiDeps): string {
  const tenant = str(ctx.query.tenant) ?? '';
  if (!d.state.tenants.has(tenant))
    throw new ApiError('invalid_request', {
      detail: `query parameter tenant must name a tenant of the fixtures, not "${tenant.slice(0, 60)}".`,
      hint: `Tenants: ${[...d.state.tenants.keys()].join(', ')}.`,
    });
  return tenant;
}

const HANDLERS: InspectorHandlers = {
  inspectorOverview: (_c, d) => overview(d.state, d.journal),
  inspectorJournal(c, d) {
    const limit = str(c.query.limit);
    return d.journal.list({
      ...(str(c.query.tenant) ? { tenant: str(c.query.tenant) } : {}),
      ...(str(c.query.status) ? { status: str(c.query.status) } : {}),
      ...(str(c.query.path) ? { path: str(c.query.path) } : {}),
      ...(limit ? { limit: Math.min(Number(limit) || 100, d.journal.capacity) } : {}),
    });
  },
  inspectorJournalEntry(c, d) {
    const detail = d.journal.get(Number(c.params.seq));
    if (!detail)
      throw new ApiError('not_found', {
        detail: `No journal entry ${c.params.seq.slice(0, 20)}: it never existed or is older than the newest ${d.journal.capacity}.`,
      });
    return { ...detail, curl: journalCurl(detail, c.req.origin ?? 'http://127.0.0.1:4010') };
  },
  inspectorLive: (c, d) =>
    raw({
      status: 200,
      headers: { ...c.responseHeaders, ...SSE_HEADERS },
      stream: createLiveSource(d.state, d.journal),
    }),
  inspectorConnections: (c, d) => connectionsView(d.state, tenantOf(c, d)),
  inspectorWebhooks: (c, d) => webhooksView(d.state, tenantOf(c, d), d.signatureHeader),
  inspectorStream: (_c, d) => streamView(d.state),
  inspectorAudit: (c, d) => auditView(d.state, tenantOf(c, d)),
  inspectorSetConnectionState: (c, d) => d.control.setConnectionState(c.params.id, c.body.state, 'inspector'),
  inspectorRedeliver: (c, d) => d.control.redeliver(c.params.id, 'inspector'),
  inspectorAdvanceClock: (c, d) => d.control.advanceClock(c.body.seconds),
  inspectorAddFault: (c, d) => d.control.addFault(c.body),
  inspectorClearFaults: (_c, d) => d.control.clearFaults(),
  inspectorRateLimit: (c, d) => d.control.setRateLimit('off' in c.body ? false : c.body),
  inspectorClientReport: (c, d) => d.control.clientReport(c.query),
  inspectorReceiverCheck: (c, d) => d.control.receiverCheck(c.body),
  inspectorTrigger: (c, d) => d.control.trigger(c.body),
  inspectorStatus: (c, d) => d.control.setStatus(c.body),
  async inspectorReset(_c, d) {
    d.journal.clear();
    return d.control.reset();
  },
};

const isReply = (v: unknown): v is Reply => typeof v === 'object' && v !== null && 'raw' in v;

/**
 * The inspector's handlers bound to their dependencies, each value answered as `data`.
 * @example const handlers = inspectorHandlers({ state, control, journal, signatureHeader });
 */
export function inspectorHandlers(deps: ApiDeps): Record<InspectorId, MountHandler> {
  const bound = {} as Record<InspectorId, MountHandler>;
  // The route-match and validate steps are what make ctx fit each route's typed context.
  for (const [id, h] of Object.entries(HANDLERS) as [InspectorId, InspectorHandlers[InspectorId]][])
    bound[id] = async (ctx) => {
      const value = await h(ctx as never, deps);
      return isReply(value) ? value : ok(value);
    };
  return bound;
}
