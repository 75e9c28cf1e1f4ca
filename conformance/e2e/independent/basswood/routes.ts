// The route table (Sinatra's `get '/path' do ... end` blocks as data): the router, the self-description and
// the OpenAPI document are all read from it, so they cannot disagree.
import { listAudit } from './audit.ts';
import type { Ctx } from './http.ts';
import { mintKey } from './idempotency.ts';
import { selfDescription, sendDocument } from './public.ts';
import * as res from './resources.ts';
import { type Rec, VERSION, VERSIONS } from './state.ts';
import { openStream } from './stream.ts';
import * as hooks from './webhooks.ts';

export interface Route {
  method: 'GET' | 'POST' | 'DELETE';
  path: string;
  purpose: string;
  auth: boolean;
  /** A modifying call run through the idempotency store (Idempotency-Key required). */
  key?: boolean;
  /** Writes its own answer (a stream, a file) instead of returning `data`. */
  raw?: boolean;
  handler: (ctx: Ctx) => Rec | undefined;
}

type Flags = Pick<Route, 'key' | 'raw'>;
const route = (
  method: Route['method'],
  path: string,
  purpose: string,
  auth: boolean,
  handler: Route['handler'],
  flags: Flags = {},
): Route => ({ method, path, purpose, auth, handler, ...flags });

const stream = (ctx: Ctx) => {
  openStream(ctx);
  return undefined;
};
const files = VERSIONS.flatMap((v) =>
  (['json', 'yaml'] as const).map((f) =>
    route(
      'GET',
      `/openapi/${v}.${f}`,
      `OpenAPI document of ${v} (${f} file)`,
      false,
      (ctx) => sendDocument(ctx, ROUTES, v, f),
      { raw: true },
    ),
  ),
);

export const ROUTES: Route[] = [
  route('GET', '', 'self-description', false, (ctx) => selfDescription(ctx, ROUTES)),
  route('GET', '/openapi.json', 'OpenAPI 3.1 document', false, (ctx) => sendDocument(ctx, ROUTES, VERSION), {
    raw: true,
  }),
  ...files,
  route('GET', '/info', 'who am I: client, tenant and version', true, (ctx) => ({
    clientId: ctx.clientId,
    tenant: ctx.tenant,
    environment: 'sandbox',
    version: ctx.version,
  })),
  route('GET', '/providers', 'list providers', true, res.listProviders),
  route('GET', '/connectors', 'list connectors', true, res.listConnectors),
  route('GET', '/capabilities', 'capability catalog', true, res.listCapabilities),
  route('POST', '/capabilities', 'check a capability of a connector', true, res.checkCapability),
  route('GET', '/connections', 'connections of the tenant', true, res.listConnections),
  route('POST', '/connections', 'create a connection', true, res.createConnection, { key: true }),
  route('POST', '/idempotency-keys', 'generate an idempotency key', true, mintKey),
  route('GET', '/stream', 'status stream (Server-Sent Events)', false, stream, { raw: true }),
  route('GET', '/webhooks', 'list webhook receivers', true, hooks.listWebhooks),
  route('POST', '/webhooks', 'create a webhook receiver', true, hooks.createWebhook, { key: true }),
  route('GET', '/webhooks/{webhook_id}', 'show a webhook receiver', true, hooks.showWebhook),
  route('DELETE', '/webhooks/{webhook_id}', 'remove a webhook receiver', true, hooks.deleteWebhook, { key: true }),
  route('GET', '/webhooks/{webhook_id}/delivery_attempts', 'delivery log of a receiver', true, hooks.listDeliveries),
  route(
    'POST',
    '/webhooks/{webhook_id}/delivery_attempts/{attempt_id}/retry',
    'deliver an attempt again',
    true,
    hooks.retryDelivery,
    { key: true },
  ),
  route('GET', '/audit-log', 'audit log with a hash chain', true, listAudit),
];

/** The route and its path parameters for a method and path under /api/public/v1. */
export function match(method: string, rest: string): { route: Route; params: Record<string, string> } | undefined {
  for (const r of ROUTES) {
    if (r.method !== method) continue;
    const names = [...r.path.matchAll(/\{(\w+)\}/g)].map((m) => m[1] ?? '');
    const re = new RegExp(`^${r.path.replace(/\./g, '\\.').replace(/\{\w+\}/g, '([^/]+)')}$`);
    const m = re.exec(rest);
    if (m)
      return { route: r, params: Object.fromEntries(names.map((n, i) => [n, decodeURIComponent(m[i + 1] ?? '')])) };
  }
  return undefined;
}
