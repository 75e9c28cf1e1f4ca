// The route table: what the router dispatches, what the self-description lists and the OpenAPI paths.
export interface Route {
  method: 'GET' | 'POST' | 'DELETE';
  path: string;
  purpose: string;
  auth: boolean;
  key: boolean;
  /** Where the interface names the route (false: linden's own addition). */
  contract: boolean;
}

const P = '/api/public/v1';

export const ROUTES: readonly Route[] = [
  { method: 'GET', path: P, purpose: 'self-description', auth: false, key: false, contract: true },
  {
    method: 'GET',
    path: `${P}/openapi.json`,
    purpose: 'OpenAPI 3.1 document',
    auth: false,
    key: false,
    contract: true,
  },
  {
    method: 'GET',
    path: `${P}/openapi/{file}`,
    purpose: 'the description as a download per version: {version}.json or {version}.yaml',
    auth: false,
    key: false,
    contract: true,
  },
  { method: 'GET', path: `${P}/providers`, purpose: 'list providers', auth: true, key: false, contract: true },
  { method: 'GET', path: `${P}/connectors`, purpose: 'list connectors', auth: true, key: false, contract: true },
  { method: 'GET', path: `${P}/capabilities`, purpose: 'capability catalog', auth: true, key: false, contract: true },
  {
    method: 'POST',
    path: `${P}/capabilities`,
    purpose: 'check a capability of a connector',
    auth: true,
    key: false,
    contract: true,
  },
  {
    method: 'GET',
    path: `${P}/connections`,
    purpose: 'connections of the tenant',
    auth: true,
    key: false,
    contract: true,
  },
  { method: 'POST', path: `${P}/connections`, purpose: 'create a connection', auth: true, key: true, contract: true },
  {
    method: 'POST',
    path: `${P}/idempotency-keys`,
    purpose: 'generate an idempotency key',
    auth: true,
    key: false,
    contract: true,
  },
  {
    method: 'GET',
    path: `${P}/stream`,
    purpose: 'status stream (Server-Sent Events)',
    auth: false,
    key: false,
    contract: true,
  },
  {
    method: 'POST',
    path: `${P}/webhooks`,
    purpose: 'create a webhook receiver',
    auth: true,
    key: true,
    contract: true,
  },
  {
    method: 'GET',
    path: `${P}/audit-log`,
    purpose: 'audit log with a signed running digest',
    auth: true,
    key: false,
    contract: true,
  },
  {
    method: 'GET',
    path: `${P}/info`,
    purpose: 'who and where this access is',
    auth: true,
    key: false,
    contract: false,
  },
  {
    method: 'DELETE',
    path: `${P}/webhooks/{webhookId}`,
    purpose: 'remove a webhook receiver',
    auth: true,
    key: true,
    contract: false,
  },
  {
    method: 'GET',
    path: `${P}/webhooks/{webhookId}/messages`,
    purpose: 'delivery log of a webhook receiver',
    auth: true,
    key: false,
    contract: false,
  },
  {
    method: 'POST',
    path: `${P}/webhooks/{webhookId}/messages/{messageId}/requeue`,
    purpose: 'trigger a logged delivery again',
    auth: true,
    key: true,
    contract: false,
  },
];

/** Matches a path against a template; the template's {names} bound to the path's segments. */
export function matchPath(template: string, path: string): Record<string, string> | null {
  const t = template.split('/');
  const p = path.split('/');
  if (t.length !== p.length) return null;
  const params: Record<string, string> = {};
  for (let i = 0; i < t.length; i++) {
    const ts = t[i] ?? '';
    const ps = p[i] ?? '';
    if (ts.startsWith('{')) {
      if (!ps) return null;
      try {
        params[ts.slice(1, -1)] = decodeURIComponent(ps);
      } catch {
        return null;
      }
    } else if (ts !== ps) return null;
  }
  return params;
}
