// The route table: dispatch, the self-description's routes and the OpenAPI paths all come from it, so what is
// served and what is described cannot drift apart.
import { readAudit } from './audit.ts';
import { describe } from './describe.ts';
import type { Ctx } from './http.ts';
import { openapiJson, openapiYaml } from './openapi.ts';
import {
  checkCapability,
  createConnection,
  info,
  issueKey,
  listCapabilities,
  listConnections,
  listConnectors,
  listProviders,
} from './operations.ts';
import type { State } from './store.ts';
import { stream } from './stream.ts';
import { deleteWebhook, listAttempts, listWebhooks, registerWebhook, resendAttempt } from './webhooks.ts';

export interface Route {
  method: string;
  path: string;
  purpose: string;
  auth: boolean;
  key: boolean;
  /** Part of the contract's endpoint table (the rest are catalpa's additions). */
  contract: boolean;
  run: (state: State, ctx: Ctx, params: string[]) => void | Promise<void>;
}

const P = '/api/public/v1';

export const ROUTES: Route[] = [
  {
    method: 'GET',
    path: P,
    purpose: 'self-description',
    auth: false,
    key: false,
    contract: true,
    run: (s, c) => describe(s, c),
  },
  {
    method: 'GET',
    path: `${P}/openapi.json`,
    purpose: 'OpenAPI 3.1 document',
    auth: false,
    key: false,
    contract: true,
    run: (_s, c) => openapiJson(c),
  },
  {
    method: 'GET',
    path: `${P}/openapi/2026-07-01.json`,
    purpose: 'OpenAPI 3.1 document of 2026-07-01 (JSON download)',
    auth: false,
    key: false,
    contract: false,
    run: (_s, c) => openapiJson(c, true),
  },
  {
    method: 'GET',
    path: `${P}/openapi/2026-07-01.yaml`,
    purpose: 'OpenAPI 3.1 document of 2026-07-01 (YAML download)',
    auth: false,
    key: false,
    contract: false,
    run: (_s, c) => openapiYaml(c),
  },
  {
    method: 'GET',
    path: `${P}/providers`,
    purpose: 'list providers',
    auth: true,
    key: false,
    contract: true,
    run: listProviders,
  },
  {
    method: 'GET',
    path: `${P}/connectors`,
    purpose: 'list connectors',
    auth: true,
    key: false,
    contract: true,
    run: listConnectors,
  },
  {
    method: 'GET',
    path: `${P}/capabilities`,
    purpose: 'capability catalog',
    auth: true,
    key: false,
    contract: true,
    run: listCapabilities,
  },
  {
    method: 'POST',
    path: `${P}/capabilities`,
    purpose: 'check a capability of a connector',
    auth: true,
    key: false,
    contract: true,
    run: checkCapability,
  },
  {
    method: 'GET',
    path: `${P}/connections`,
    purpose: 'connections of the tenant',
    auth: true,
    key: false,
    contract: true,
    run: listConnections,
  },
  {
    method: 'POST',
    path: `${P}/connections`,
    purpose: 'create a connection',
    auth: true,
    key: true,
    contract: true,
    run: createConnection,
  },
  {
    method: 'POST',
    path: `${P}/idempotency-keys`,
    purpose: 'generate an idempotency key',
    auth: true,
    key: false,
    contract: true,
    run: issueKey,
  },
  {
    method: 'GET',
    path: `${P}/stream`,
    purpose: 'status stream (Server-Sent Events)',
    auth: false,
    key: false,
    contract: true,
    run: stream,
  },
  {
    method: 'POST',
    path: `${P}/webhooks`,
    purpose: 'create a webhook receiver',
    auth: true,
    key: true,
    contract: true,
    run: registerWebhook,
  },
  {
    method: 'GET',
    path: `${P}/webhooks`,
    purpose: 'webhook receivers of the tenant',
    auth: true,
    key: false,
    contract: false,
    run: listWebhooks,
  },
  {
    method: 'DELETE',
    path: `${P}/webhooks/{webhookId}`,
    purpose: 'remove a webhook receiver',
    auth: true,
    key: true,
    contract: false,
    run: (s, c, p) => deleteWebhook(s, c, p[0] ?? ''),
  },
  {
    method: 'GET',
    path: `${P}/webhooks/{webhookId}/attempts`,
    purpose: 'delivery log of a webhook receiver (attempts)',
    auth: true,
    key: false,
    contract: false,
    run: (s, c, p) => listAttempts(s, c, p[0] ?? ''),
  },
  {
    method: 'POST',
    path: `${P}/webhooks/{webhookId}/attempts/{attemptId}/resend`,
    purpose: 'send a logged delivery again',
    auth: true,
    key: true,
    contract: false,
    run: (s, c, p) => resendAttempt(s, c, p[0] ?? '', p[1] ?? ''),
  },
  {
    method: 'GET',
    path: `${P}/audit-log`,
    purpose: 'audit log with a hash chain',
    auth: true,
    key: false,
    contract: true,
    run: readAudit,
  },
  {
    method: 'GET',
    path: `${P}/info`,
    purpose: 'who am I: tenant, client, environment',
    auth: true,
    key: false,
    contract: false,
    run: info,
  },
];

const compiled = ROUTES.map((r) => ({
  route: r,
  re: new RegExp(`^${r.path.replace(/\{[^}]+\}/g, '([^/]+)').replace(/\./g, '\\.')}$`),
}));

/** The route for method and path, or undefined (both an unknown path and an unknown method are 404). */
export function match(method: string, path: string): { route: Route; params: string[] } | undefined {
  for (const { route, re } of compiled) {
    const m = re.exec(path);
    if (m && route.method === method) return { route, params: m.slice(1).map((p) => decodeURIComponent(p)) };
  }
  return undefined;
}
