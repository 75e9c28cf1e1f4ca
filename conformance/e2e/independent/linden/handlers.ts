// Handlers of the catalog, capability checks, connections, idempotency keys, /info and the self-description.

import { auditKey, record } from './audit.ts';
import { METADATA_PATH, TOKEN_PATH } from './auth.ts';
import { ApiError, type Call, CURRENT_VERSION, ok, VERSIONS } from './call.ts';
import { CAPABILITIES, CONNECTORS, capabilityById, connectorById, denial, PROVIDERS } from './catalog.ts';
import { decode, jsonBody, type Spec } from './decode.ts';
import { once } from './idempotency.ts';
import { ROUTES } from './routes.ts';
import { type Connection, later, stamp } from './state.ts';
import { notify, STREAM_KINDS } from './stream.ts';
import { randomToken, snowflake } from './util.ts';
import { emit, SIGNATURE_HEADER, WEBHOOK_EVENTS } from './webhooks.ts';

export const ENVIRONMENTS = ['development', 'sandbox', 'pilot', 'production'] as const;
const id120 = { type: 'string', min: 2, max: 120 } as const;

export const CHECK_SPEC: Spec = {
  connectorId: id120,
  capability: id120,
  environment: { type: 'string', min: 0, max: 64, enum: ENVIRONMENTS, optional: true, default: 'sandbox' },
};
export const CREATE_SPEC: Spec = {
  connectorId: id120,
  environment: { type: 'string', min: 0, max: 64, enum: ENVIRONMENTS },
  scopeLabel: id120,
  capabilities: { type: 'array', min: 1, max: 24, items: id120 },
};
export const KEY_SPEC: Spec = { operation: { type: 'string', min: 2, max: 80 } };

const filtered = <T extends Record<string, unknown>>(call: Call, list: readonly T[], names: string[]): T[] =>
  list.filter((item) =>
    names.every((n) => {
      const want = call.url.searchParams.get(n);
      if (want === null) return true;
      const have = item[n === 'capability' ? 'capabilities' : n];
      return Array.isArray(have) ? have.includes(want) : have === want;
    }),
  );

export function selfDescription(call: Call): void {
  const origin = new URL(call.base).origin;
  const k = auditKey(call.state);
  ok(call, {
    service: 'Network Connections Service',
    surface: 'public',
    version: call.version,
    versions: VERSIONS,
    authentication: {
      type: 'oauth2',
      flows: ['client_credentials'],
      tokenEndpoint: `${origin}${TOKEN_PATH}`,
      metadata: `${origin}${METADATA_PATH}`,
      tokenEndpointAuthMethods: call.state.options.tokenAuthMethods,
      tenantHeader: 'x-service-tenant',
    },
    idempotency: {
      header: 'Idempotency-Key',
      pattern: '^[A-Za-z0-9._:-]{8,128}$',
      ttlSeconds: call.state.options.keyTtlMs / 1000,
      scope: 'access, tenant and key',
    },
    routes: ROUTES.map(({ method, path, purpose, auth }) => ({ method, path, purpose, auth })),
    stream: { kinds: STREAM_KINDS, resume: ['Last-Event-ID', 'cursor'] },
    webhooks: { events: WEBHOOK_EVENTS, signatureHeader: SIGNATURE_HEADER, secretField: 'secret' },
    audit: { proof: 'Ed25519 over the running sha256 digest', keyId: k.keyId, publicKey: k.publicKey },
    openapi: {
      json: '/api/public/v1/openapi.json',
      downloads: VERSIONS.map((v) => ({
        version: v,
        json: `/api/public/v1/openapi/${v}.json`,
        yaml: `/api/public/v1/openapi/${v}.yaml`,
      })),
    },
  });
}

export function info(call: Call): void {
  ok(call, {
    tenant: call.tenant,
    clientId: call.clientId,
    environment: 'sandbox',
    purpose: 'conformance and integration tests',
    owner: 'platform-team@linden.example',
    currentVersion: CURRENT_VERSION,
  });
}

export function providers(call: Call): void {
  const list = filtered(call, PROVIDERS as unknown as Record<string, unknown>[], ['category']);
  ok(call, { count: list.length, providers: list });
}

export function connectors(call: Call): void {
  const list = filtered(call, CONNECTORS as unknown as Record<string, unknown>[], [
    'capability',
    'providerId',
    'category',
  ]);
  ok(call, { count: list.length, connectors: list });
}

export function capabilities(call: Call): void {
  ok(call, { count: CAPABILITIES.length, capabilities: CAPABILITIES });
}

export async function checkCapability(call: Call): Promise<void> {
  const body = decode(await jsonBody(call), CHECK_SPEC);
  const connectorId = String(body.connectorId);
  const capability = String(body.capability);
  const connector = connectorById(connectorId);
  if (!connector)
    throw new ApiError('not_found', 'no connector with this id', undefined, 'GET /api/public/v1/connectors lists them');
  const why = denial(connector, capability);
  const cap = capabilityById(capability);
  const decision = {
    connectorId,
    capability,
    allowed: why === null,
    critical: cap?.critical ?? false,
    idempotencyRequired: cap?.idempotencyRequired ?? false,
    reason: why ?? `connector ${connectorId} offers ${capability}`,
  };
  ok(call, { decision, environment: body.environment });
}

export function listConnections(call: Call): void {
  const list = call.state.connections.get(call.tenant ?? '') ?? [];
  ok(call, { tenant: call.tenant, count: list.length, connections: list });
}

export async function createConnection(call: Call): Promise<void> {
  const raw = await jsonBody(call);
  const body = decode(raw, CREATE_SPEC);
  const mode = call.state.options.capabilityList;
  const sent = body.capabilities as string[];
  if (mode === 'unique' && new Set(sent).size !== sent.length) {
    throw new ApiError(
      'invalid_request',
      'the request body does not match the schema',
      'Expected unique items - at `$.capabilities`',
    );
  }
  // "a set of capabilities": the set choice stores each capability once, in sorted order (a frozenset).
  body.capabilities = mode === 'set' ? [...new Set(sent)].sort() : sent;
  once(call, raw, () => {
    const { state } = call;
    const tenant = call.tenant ?? '';
    const connector = connectorById(String(body.connectorId));
    if (!connector)
      throw new ApiError(
        'not_found',
        'no connector with this id',
        undefined,
        'GET /api/public/v1/connectors lists them',
      );
    const caps = body.capabilities as string[];
    for (const c of caps) {
      const why = denial(connector, c);
      if (why)
        throw new ApiError(
          'capability_denied',
          'a capability is not released for this connection',
          why,
          'have the capability released',
        );
    }
    const at = stamp(call.state);
    const conn: Connection = {
      id: snowflake(),
      connectorId: connector.id,
      environment: String(body.environment),
      scopeLabel: String(body.scopeLabel),
      state: 'provisioning',
      capabilities: caps.map((c) => ({
        capability: c,
        critical: capabilityById(c)?.critical ?? false,
        idempotencyRequired: capabilityById(c)?.idempotencyRequired ?? false,
      })),
      nextStep: 'wait_for_provisioning',
      createdAt: at,
      updatedAt: at,
    };
    const list = state.connections.get(tenant) ?? [];
    list.push(conn);
    state.connections.set(tenant, list);
    record(
      state,
      tenant,
      'connection.create',
      call.clientId ?? '',
      { type: 'connection', id: conn.id },
      call.idempotencyKey,
    );
    notify(state, 'connection_inserted', conn);
    emit(state, tenant, 'connection.created', { connection: { ...conn } });
    later(state, state.options.liveAfterMs, () => {
      conn.state = 'live';
      conn.nextStep = 'none';
      conn.updatedAt = stamp(state);
      notify(state, 'connection_state_changed', conn);
      emit(state, tenant, 'connection.live', { connection: { ...conn } });
    });
    return { ...conn };
  });
}

export async function issueKey(call: Call): Promise<void> {
  const body = decode(await jsonBody(call), KEY_SPEC);
  const key = `lk_${snowflake()}.${randomToken(12).replace(/[^A-Za-z0-9]/g, 'x')}`;
  ok(call, {
    idempotencyKey: key,
    operation: body.operation,
    expiresAt: stamp(call.state, Date.now() + call.state.options.keyTtlMs),
  });
}
