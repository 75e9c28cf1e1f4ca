// The controllers of wisteria: the self-description and the authenticated routes (a @RestController's
// mappings, as one table), each answering through the shared envelope helpers.
import { randomUUID } from 'node:crypto';
import { JWKS_PATH, readAudit } from './audit.ts';
import { type Principal, TOKEN_PATH } from './auth.ts';
import {
  checkCapability,
  createConnection,
  getConnection,
  listCapabilities,
  listConnections,
  listConnectors,
  listProviders,
} from './connections.ts';
import {
  ApiError,
  type Call,
  nowIso,
  parseJsonObject,
  readText,
  rejectUnknownFields,
  requireString,
  sendOk,
} from './http-kit.ts';
import { KEY_PATTERN, KEY_VALIDITY_MS, readKey, withIdempotency } from './idempotency.ts';
import { matchPath, ROUTES } from './routes.ts';
import type { State } from './state.ts';
import {
  deleteWebhook,
  getWebhook,
  listDeliveries,
  listWebhooks,
  redeliver,
  registerWebhook,
  SIGNATURE_HEADER,
  WEBHOOK_EVENTS,
} from './webhooks.ts';

const API = '/api/public/v1';

export function describe(state: State, call: Call): void {
  sendOk(call, {
    service: 'network-connections',
    surface: 'public',
    version: call.version,
    authentication: {
      type: 'oauth2',
      flows: ['client_credentials'],
      tokenEndpoint: `${call.origin}${TOKEN_PATH}`,
      metadata: `${call.origin}/.well-known/oauth-authorization-server`,
      tenantHeader: 'x-service-tenant',
    },
    idempotency: {
      header: 'Idempotency-Key',
      pattern: KEY_PATTERN.source,
      validityHours: KEY_VALIDITY_MS / 3_600_000,
      requiredOn: ROUTES.filter((r) => r.key === 'required').map((r) => `${r.method} ${r.path}`),
    },
    routes: ROUTES.map((r) => ({ method: r.method, path: r.path, purpose: r.purpose, auth: r.auth })),
    webhooks: { events: WEBHOOK_EVENTS, signatureHeader: SIGNATURE_HEADER },
    rateLimit: { limit: state.options.rateLimit, windowSeconds: state.options.windowMs / 1000, per: 'token' },
    _links: {
      self: { href: `${call.origin}${API}` },
      openapi: { href: `${call.origin}${API}/openapi.json` },
      openapiYaml: { href: `${call.origin}${API}/openapi.yaml` },
      jwks: { href: `${call.origin}${JWKS_PATH}` },
    },
  });
}

async function jsonBody(call: Call, allowEmpty = false): Promise<Record<string, unknown>> {
  const text = await readText(call.req);
  if (allowEmpty && text.trim() === '') return {};
  return parseJsonObject(call, text);
}

function issueKey(state: State, call: Call, who: Principal, body: Record<string, unknown>): void {
  const key = readKey(call, false);
  withIdempotency(state, call, who, key, body, () => {
    rejectUnknownFields(body, ['operation']);
    const operation = requireString(body, 'operation', 2, 80);
    return { idempotencyKey: `wst-${randomUUID()}`, operation, expiresAt: nowIso(Date.now() + KEY_VALIDITY_MS) };
  });
}

type Handler = (state: State, call: Call, who: Principal, p: Record<string, string>) => Promise<void> | void;

/** Authenticated routes: method, path template under the API root, handler (a @RestController's mappings). */
const AUTHENTICATED: [string, string, Handler][] = [
  ['GET', '/providers', (_s, call) => listProviders(call)],
  ['GET', '/connectors', (_s, call) => listConnectors(call)],
  ['GET', '/capabilities', (_s, call) => listCapabilities(call)],
  ['POST', '/capabilities', async (_s, call) => checkCapability(call, await jsonBody(call))],
  ['GET', '/connections', (s, call, who) => listConnections(s, call, who)],
  [
    'POST',
    '/connections',
    async (s, call, who) => {
      readKey(call, true); // 428 before the body is read: the key is the first thing this call needs
      createConnection(s, call, who, await jsonBody(call));
    },
  ],
  ['GET', '/connections/{id}', (s, call, who, p) => getConnection(s, call, who, p.id ?? '')],
  ['POST', '/idempotency-keys', async (s, call, who) => issueKey(s, call, who, await jsonBody(call))],
  [
    'POST',
    '/webhooks',
    async (s, call, who) => {
      readKey(call, true);
      registerWebhook(s, call, who, await jsonBody(call));
    },
  ],
  ['GET', '/webhooks', (s, call, who) => listWebhooks(s, call, who)],
  ['GET', '/webhooks/{id}', (s, call, who, p) => getWebhook(s, call, who, p.id ?? '')],
  ['DELETE', '/webhooks/{id}', (s, call, who, p) => deleteWebhook(s, call, who, p.id ?? '')],
  ['GET', '/webhooks/{id}/deliveries', (s, call, who, p) => listDeliveries(s, call, who, p.id ?? '')],
  [
    'POST',
    '/webhooks/{id}/deliveries/{d}/redelivery',
    async (s, call, who, p) => {
      readKey(call, true);
      redeliver(s, call, who, p.id ?? '', p.d ?? '', await jsonBody(call, true));
    },
  ],
  ['GET', '/audit-log', (s, call, who) => readAudit(s, call, who)],
  [
    'GET',
    '/info',
    (_s, call, who) =>
      sendOk(call, {
        tenant: who.tenant,
        clientId: who.clientId,
        environment: 'sandbox',
        tokenExpiresAt: nowIso(who.expiresAt),
      }),
  ],
];

/** Strict query mode (Spring's strict binding): a query parameter the operation does not take is refused. */
function rejectUnknownQuery(call: Call, template: string): void {
  const route = ROUTES.find((r) => r.method === call.method && r.path === `${API}${template}`);
  const allowed = route?.query ?? [];
  const unknown = [...call.query.keys()].filter((k) => !allowed.includes(k));
  if (unknown.length > 0) {
    throw new ApiError(
      'invalid_request',
      'Unknown query parameter.',
      `Not taken by this operation: ${unknown.join(', ')}.`,
    );
  }
}

export async function routeAuthenticated(state: State, call: Call, who: Principal): Promise<void> {
  for (const [method, template, handler] of AUTHENTICATED) {
    const params = method === call.method ? matchPath(`${API}${template}`, call.path) : undefined;
    if (params === undefined) continue;
    if (state.options.strictQuery) rejectUnknownQuery(call, template);
    // The delivery log came with 2026-07-01: a caller pinned to 2026-06-12 does not see it (a legal choice).
    if (state.options.deliveryLogSinceCurrent && call.version === '2026-06-12' && template.includes('/deliveries'))
      break;
    return await handler(state, call, who, params);
  }
  throw new ApiError('not_found', 'No such resource.', `${call.method} ${call.path} is not a route of this interface.`);
}
