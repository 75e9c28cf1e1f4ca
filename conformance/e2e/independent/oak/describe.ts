// Self-description, /info and the single-connection read: small reads that need the whole state.
import type { Call } from './http-kit.ts';
import { BASE, CURRENT_VERSION, isoMicros, sendError, sendOk, VERSIONS } from './http-kit.ts';
import { KEY_TTL_MS } from './idempotency.ts';
import { ROUTES } from './routes.ts';
import type { State } from './state.ts';

export function describeService(call: Call): void {
  sendOk(call, {
    service: 'network-connections',
    surface: 'public',
    version: call.version,
    versions: VERSIONS,
    currentVersion: CURRENT_VERSION,
    authentication: {
      type: 'oauth2',
      flows: ['client_credentials'],
      tokenEndpoint: `${call.origin}/oauth/token`,
      tokenEndpointAuthMethods: ['client_secret_basic', 'client_secret_post'],
      headers: { authorization: 'Bearer <access token>', tenant: 'x-service-tenant' },
    },
    idempotency: {
      header: 'Idempotency-Key',
      pattern: '^[A-Za-z0-9._:-]{8,128}$',
      requiredOn: ROUTES.filter((r) => r.key === 'required').map((r) => `${r.method} ${BASE}${r.path}`),
      validity: `${KEY_TTL_MS / 1000} s from first use`,
      issue: `POST ${BASE}/idempotency-keys`,
    },
    openapi: { json: `${call.origin}${BASE}/openapi.json`, yaml: `${call.origin}${BASE}/openapi.yaml` },
    routes: ROUTES.map((r) => ({ method: r.method, path: `${BASE}${r.path}`, purpose: r.purpose, auth: r.auth })),
  });
}

export function info(state: State, call: Call): void {
  const token = call.token ? state.tokens.get(call.token) : undefined;
  sendOk(call, {
    client: call.clientId,
    tenant: call.tenant,
    environment: 'sandbox',
    tokenExpiresAt: isoMicros(token?.expiresMs ?? Date.now()),
    purpose: 'sandbox integration (invented test data only)',
  });
}

export function showConnection(state: State, call: Call, id: string): void {
  const c = state.connections.find((x) => x.id === id && x.tenant === call.tenant);
  if (!c) {
    sendError(
      call,
      'not_found',
      'No query results for model [Connection].',
      'No connection of this tenant has this id.',
    );
    return;
  }
  const { tenant: _tenant, ...view } = c;
  sendOk(call, view);
}
