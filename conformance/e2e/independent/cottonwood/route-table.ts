// One table of every served operation: the router, the self-description and the OpenAPI document all
// read it (Elysia's route registry, which its OpenAPI plugin walks), so the three cannot disagree.
import { checkBody } from './catalog.ts';
import { BASE } from './http.ts';
import { connectionBody } from './resources.ts';
import { WEBHOOK_AND_AUDIT_ROUTES } from './route-webhooks.ts';
import { type Schema, t } from './validate.ts';

export { BASE } from './http.ts';

export interface Route {
  method: 'GET' | 'POST' | 'DELETE';
  path: string;
  operationId: string;
  purpose: string;
  auth: boolean;
  /** Modifying call: Idempotency-Key required. */
  key?: boolean;
  body?: Schema;
  query?: Record<string, Schema>;
  /** Added in 2026-07-01: absent from the 2026-06-12 document. */
  since?: string;
  /** Served but not JSON (stream, files). */
  raw?: string;
}

export const ROUTES: Route[] = [
  { method: 'GET', path: BASE, operationId: 'describe', purpose: 'self-description', auth: false },
  {
    method: 'GET',
    path: `${BASE}/openapi.json`,
    operationId: 'openapi',
    purpose: 'OpenAPI 3.1 document',
    auth: false,
    raw: 'application/json',
  },
  {
    method: 'GET',
    path: `${BASE}/openapi/{version}.json`,
    operationId: 'openapiJsonFile',
    purpose: 'OpenAPI document of one version, as a JSON file',
    auth: false,
    raw: 'application/json',
  },
  {
    method: 'GET',
    path: `${BASE}/openapi/{version}.yaml`,
    operationId: 'openapiYamlFile',
    purpose: 'OpenAPI document of one version, as a YAML file',
    auth: false,
    raw: 'application/yaml',
  },
  {
    method: 'GET',
    path: `${BASE}/info`,
    operationId: 'info',
    purpose: 'who is calling: client, tenants, token expiry',
    auth: true,
  },
  {
    method: 'GET',
    path: `${BASE}/providers`,
    operationId: 'listProviders',
    purpose: 'list providers',
    auth: true,
    query: { category: t.String() },
  },
  {
    method: 'GET',
    path: `${BASE}/connectors`,
    operationId: 'listConnectors',
    purpose: 'list connectors',
    auth: true,
    query: { capability: t.String(), providerId: t.String(), category: t.String() },
  },
  {
    method: 'GET',
    path: `${BASE}/capabilities`,
    operationId: 'listCapabilities',
    purpose: 'capability catalog',
    auth: true,
  },
  {
    method: 'POST',
    path: `${BASE}/capabilities`,
    operationId: 'checkCapability',
    purpose: 'check a capability of a connector',
    auth: true,
    body: checkBody,
  },
  {
    method: 'GET',
    path: `${BASE}/connections`,
    operationId: 'listConnections',
    purpose: 'connections of the tenant',
    auth: true,
  },
  {
    method: 'POST',
    path: `${BASE}/connections`,
    operationId: 'createConnection',
    purpose: 'create a connection',
    auth: true,
    key: true,
    body: connectionBody,
  },
  {
    method: 'POST',
    path: `${BASE}/idempotency-keys`,
    operationId: 'createIdempotencyKey',
    purpose: 'generate an idempotency key',
    auth: true,
    body: t.Object({ operation: t.String({ minLength: 2, maxLength: 80 }) }),
  },
  {
    method: 'GET',
    path: `${BASE}/stream`,
    operationId: 'stream',
    purpose: "status stream (Server-Sent Events); with a bearer and tenant header, that tenant's stream",
    auth: false,
    query: { cursor: t.Integer({ minimum: 0 }) },
    raw: 'text/event-stream',
  },
  ...WEBHOOK_AND_AUDIT_ROUTES,
];

/** The route and its path parameters, or undefined. */
export function match(method: string, path: string): { route: Route; params: Record<string, string> } | undefined {
  for (const route of ROUTES) {
    if (route.method !== method) continue;
    const names: string[] = [];
    const source = route.path.replace(/[.]/g, '\\.').replace(/\{(\w+)\}/g, (_m, n: string) => {
      names.push(n);
      return '([^/]+?)';
    });
    const m = new RegExp(`^${source}$`).exec(path);
    if (!m) continue;
    const params: Record<string, string> = {};
    names.forEach((n, i) => {
      params[n] = decodeURIComponent(m[i + 1] ?? '');
    });
    return { route, params };
  }
  return undefined;
}
