// The route table (the interface's endpoints plus baobab's additions) and a small path matcher for
// {param} segments.
import { auditPage } from './audit.ts';
import { selfDescription, sendDocument, sendDownload } from './describe.ts';
import * as h from './handlers.ts';
import { CURRENT_VERSION } from './http-util.ts';
import { openApiDocument } from './openapi.ts';
import { type Call, type Route, SCHEMAS } from './route-types.ts';
import { openStream } from './stream.ts';
import * as w from './webhook-handlers.ts';

const P = '/api/public/v1';

function auditLog(call: Call): unknown {
  const page = auditPage(call.state, call.caller.tenant, call.query);
  if (page.next && !call.state.opts.auditNoLink)
    call.ctx.headers.Link = `<${call.origin}${P}/audit-log${page.next}>; rel="next"`;
  return page.data;
}

export const ROUTES: Route[] = [
  { method: 'GET', path: P, purpose: 'self-description', auth: false, contract: true, handle: selfDescription },
  {
    method: 'GET',
    path: `${P}/openapi.json`,
    purpose: 'OpenAPI 3.1 document',
    auth: false,
    contract: true,
    raw: true,
    handle: (c) => sendDocument(c, openApiDocument(c.origin)),
  },
  {
    method: 'GET',
    path: `${P}/openapi/{file}`,
    purpose: 'OpenAPI description of a version as a JSON or YAML download',
    auth: false,
    contract: false,
    raw: true,
    handle: sendDownload,
  },
  {
    method: 'GET',
    path: `${P}/info`,
    purpose: 'who is calling: tenant, client, environment',
    auth: true,
    contract: false,
    handle: h.info,
  },
  {
    method: 'GET',
    path: `${P}/providers`,
    purpose: 'list providers',
    auth: true,
    contract: true,
    handle: h.listProviders,
  },
  {
    method: 'GET',
    path: `${P}/connectors`,
    purpose: 'list connectors',
    auth: true,
    contract: true,
    handle: h.listConnectors,
  },
  {
    method: 'GET',
    path: `${P}/capabilities`,
    purpose: 'capability catalog',
    auth: true,
    contract: true,
    handle: h.listCapabilities,
  },
  {
    method: 'POST',
    path: `${P}/capabilities`,
    purpose: 'check a capability of a connector',
    auth: true,
    contract: true,
    key: 'optional',
    schema: SCHEMAS.capabilityCheck,
    handle: h.checkCapability,
  },
  {
    method: 'GET',
    path: `${P}/connections`,
    purpose: 'connections of the tenant',
    auth: true,
    contract: true,
    handle: h.listConnections,
  },
  {
    method: 'POST',
    path: `${P}/connections`,
    purpose: 'create a connection',
    auth: true,
    contract: true,
    key: 'required',
    schema: SCHEMAS.connectionCreate,
    handle: h.createConnection,
  },
  {
    method: 'POST',
    path: `${P}/idempotency-keys`,
    purpose: 'generate an idempotency key',
    auth: true,
    contract: true,
    key: 'optional',
    schema: SCHEMAS.keyCreate,
    handle: h.issueKey,
  },
  {
    method: 'GET',
    path: `${P}/stream`,
    purpose: 'status stream (Server-Sent Events)',
    auth: false,
    contract: true,
    raw: true,
    handle: (c) => openStream(c.state, c.req, c.res, c.query, c.ctx),
  },
  {
    method: 'GET',
    path: `${P}/webhooks`,
    purpose: 'webhook receivers of the tenant',
    auth: true,
    contract: false,
    handle: w.listWebhooks,
  },
  {
    method: 'POST',
    path: `${P}/webhooks`,
    purpose: 'create a webhook receiver',
    auth: true,
    contract: true,
    key: 'required',
    schema: SCHEMAS.webhookCreate,
    handle: w.createWebhook,
  },
  {
    method: 'DELETE',
    path: `${P}/webhooks/{webhookId}`,
    purpose: 'remove a webhook receiver',
    auth: true,
    contract: false,
    key: 'required',
    handle: w.deleteWebhook,
  },
  {
    method: 'GET',
    path: `${P}/webhooks/{webhookId}/deliveries`,
    purpose: 'delivery log of a webhook receiver',
    auth: true,
    contract: false,
    since: CURRENT_VERSION,
    handle: w.listDeliveries,
  },
  {
    method: 'POST',
    path: `${P}/webhooks/{webhookId}/deliveries/{deliveryId}/retry`,
    purpose: 'trigger a logged delivery again',
    auth: true,
    contract: false,
    key: 'required',
    since: CURRENT_VERSION,
    handle: w.retryDelivery,
  },
  {
    method: 'GET',
    path: `${P}/audit-log`,
    purpose: 'audit log with a proof of integrity',
    auth: true,
    contract: true,
    handle: auditLog,
  },
];

/** The route for method and path, with its path parameters (none: 404). */
export function matchRoute(method: string, path: string): { route?: Route; params: Record<string, string> } {
  const parts = path.split('/');
  for (const route of ROUTES) {
    const want = route.path.split('/');
    if (want.length !== parts.length || route.method !== method) continue;
    const params: Record<string, string> = {};
    const ok = want.every((seg, i) => {
      const got = parts[i] ?? '';
      if (seg.startsWith('{')) {
        try {
          params[seg.slice(1, -1)] = decodeURIComponent(got);
        } catch {
          return false;
        }
        return got !== '';
      }
      return seg === got;
    });
    if (ok) return { route, params };
  }
  return { params: {} };
}
