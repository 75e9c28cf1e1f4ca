// The application: shared state and the dispatcher behind both listening addresses. Public routes first,
// then authentication (token, tenant, rate limit), then the route's handler; modifying routes run under
// their idempotency key.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { AuditLog } from './audit.ts';
import { type AuthState, authenticate, tokenEndpoint } from './auth.ts';
import { checkCapability, listCapabilities, listConnectors, listProviders } from './catalog.ts';
import { ConnectionStore } from './connections.ts';
import { type Call, fail, HttpError, KNOWN_VERSIONS, newCall, ok, readBody, sendRaw, VERSION } from './http-kit.ts';
import { type IdempotencyState, idempotent, issueKey } from './idempotency.ts';
import { buildOpenApi, TOKEN_PATH, toYaml } from './openapi.ts';
import { ROUTES, type Route } from './routes.ts';
import { StreamHub } from './stream.ts';
import { WEBHOOK_EVENTS, WebhookHub } from './webhooks.ts';

export interface AppOptions {
  auth: AuthState;
  activationMs: number;
  pauseAfterMs?: number;
  streamKeep: number;
  versionRequired: boolean;
  /** uvicorn-style access log on stdout (GINKGO_ACCESS_LOG=1). */
  accessLog?: boolean;
  streamFromStart?: boolean;
  resendAsNew?: boolean;
  /** Where the token URL is advertised: absolute in the self-description (default), relative, or only in OpenAPI. */
  tokenAdvert?: 'absolute' | 'relative' | 'openapi';
  storeRefusals?: boolean;
}

export function createApp(o: AppOptions) {
  const audit = new AuditLog();
  const stream = new StreamHub(o.streamKeep);
  const record = (tenant: string, action: string, actor: string, id: string, requestId: string) =>
    audit.record(tenant, action, actor, action.startsWith('webhook') ? 'webhook' : 'connection', id, requestId);
  const webhooks = new WebhookHub(record);
  webhooks.resendAsNew = o.resendAsNew === true;
  stream.fromStart = o.streamFromStart === true;
  const timers = new Set<NodeJS.Timeout>();
  const connections = new ConnectionStore({
    activationMs: o.activationMs,
    pauseAfterMs: o.pauseAfterMs,
    timers,
    audit: record,
    emit: (tenant, event, c) => {
      stream.publish(event, { connectionId: c.id, state: c.state, at: new Date().toISOString() });
      webhooks.dispatch(tenant, event, { connection: c });
    },
  });
  const idem: IdempotencyState = { stored: new Map(), issued: new Map(), storeRefusals: o.storeRefusals };
  const openapi = buildOpenApi();
  const openapiJson = JSON.stringify(openapi);
  const openapiYaml = `# Ginkgo Network Connections Service ${VERSION}${toYaml(openapi)}`;

  function describe(call: Call): void {
    ok(call, {
      service: 'ginkgo-network-connections',
      surface: 'public',
      version: VERSION,
      authentication: {
        type: 'oauth2',
        flow: 'client_credentials',
        ...(o.tokenAdvert === 'openapi'
          ? { documentedIn: 'openapi.json components.securitySchemes.OAuth2ClientCredentials' }
          : { tokenEndpoint: o.tokenAdvert === 'relative' ? TOKEN_PATH : `${call.origin}${TOKEN_PATH}` }),
        tokenEndpointAuthMethods: ['client_secret_basic', 'client_secret_post'],
        header: 'Authorization: Bearer <token>',
        tenantHeader: 'x-service-tenant',
      },
      idempotency: {
        header: 'Idempotency-Key',
        pattern: '^[A-Za-z0-9._:-]{8,128}$',
        validity: 'PT24H from first use; an issued key states expiresAt = issue + 24 h until it is first used',
        scope: 'client, tenant and key; same method, path and JSON body replays, other content is idempotency_conflict',
      },
      routes: ROUTES.map((r) => ({ method: r.method, path: r.path, purpose: r.purpose, auth: r.auth })),
      webhooks: { events: WEBHOOK_EVENTS, signatureHeader: 'X-Ginkgo-Signature', signingKeyField: 'signingKey' },
      stream: {
        events: ['connection.created', 'connection.ready', 'connection.paused'],
        kept: o.streamKeep,
        retryMs: 3000,
      },
      documents: { json: '/api/public/v1/docs/openapi.json', yaml: '/api/public/v1/docs/openapi.yaml' },
    });
  }

  async function route(call: Call): Promise<void> {
    const sv = call.req.headers['service-version'];
    const version = Array.isArray(sv) ? sv[0] : sv;
    if (version !== undefined && !KNOWN_VERSIONS.includes(version))
      throw new HttpError(
        'invalid_request',
        "header.service-version: Input should be '2026-07-01' or '2026-06-12'",
        `header.service-version: unknown version '${version}'`,
      );
    if (version === undefined && o.versionRequired)
      throw new HttpError(
        'invalid_request',
        'header.service-version: Field required',
        'header.service-version: Field required',
      );
    if (call.method === 'POST' && call.path === TOKEN_PATH)
      return tokenEndpoint(o.auth, call.req, call.res, await readBody(call.req));
    const hit = matchRoute(call.method, call.path);
    if (!hit)
      throw new HttpError(
        'not_found',
        'Not Found',
        `path: no operation ${call.method} ${call.path}`,
        'see /api/public/v1/openapi.json',
      );
    const { route: r, params } = hit;
    const file = { 'content-disposition': '' };
    switch (r.operationId) {
      case 'describe':
        return describe(call);
      case 'openapi_json':
        return sendRaw(call, 200, 'application/json', openapiJson);
      case 'openapi_json_download':
        file['content-disposition'] = `attachment; filename="ginkgo-openapi-${VERSION}.json"`;
        return sendRaw(call, 200, 'application/json', openapiJson, file);
      case 'openapi_yaml_download':
        file['content-disposition'] = `attachment; filename="ginkgo-openapi-${VERSION}.yaml"`;
        return sendRaw(call, 200, 'application/yaml', openapiYaml, file);
      case 'stream':
        return stream.open(call);
    }
    authenticate(o.auth, call);
    const text = call.method === 'POST' ? await readBody(call.req) : '';
    const id = params.webhook_id ?? '';
    switch (r.operationId) {
      case 'info':
        return ok(call, {
          clientId: call.clientId,
          tenant: call.tenant,
          environment: 'sandbox',
          tokenExpiresAt: new Date(o.auth.tokens.get(call.token ?? '')?.expiresAt ?? 0).toISOString(),
        });
      case 'list_providers':
        return listProviders(call);
      case 'list_connectors':
        return listConnectors(call);
      case 'list_capabilities':
        return listCapabilities(call);
      case 'check_capability':
        return checkCapability(call, text);
      case 'list_connections':
        return connections.list(call);
      case 'create_connection':
        return idempotent(idem, call, text, () => connections.create(call, text));
      case 'create_idempotency_key':
        return issueKey(idem, call, text);
      case 'list_webhooks':
        return webhooks.list(call);
      case 'create_webhook':
        return idempotent(idem, call, text, () => webhooks.register(call, text));
      case 'read_webhook':
        return webhooks.read(call, id);
      case 'delete_webhook':
        return idempotent(idem, call, text, () => webhooks.remove(call, id));
      case 'list_webhook_logs':
        return webhooks.deliveryLog(call, id);
      case 'resend_webhook_log':
        return idempotent(idem, call, text, () => webhooks.resend(call, id, params.log_id ?? ''));
      case 'read_audit_log':
        return audit.page(call);
    }
    throw new HttpError('not_found', 'Not Found');
  }

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const call = newCall(req, res);
    if (o.accessLog) res.on('finish', () => console.log(`INFO: ${req.method} ${req.url} ${res.statusCode}`));
    try {
      await route(call);
    } catch (err) {
      fail(call, err);
    }
  }

  function close(): void {
    for (const t of timers) clearTimeout(t);
    stream.close();
    webhooks.close();
  }

  return { handle, close };
}

/** Matches a request to a row; path parameters by name. */
function matchRoute(method: string, path: string): { route: Route; params: Record<string, string> } | undefined {
  for (const route of ROUTES) {
    if (route.method !== method) continue;
    const a = route.path.split('/');
    const b = path.split('/');
    if (a.length !== b.length) continue;
    const params: Record<string, string> = {};
    const hit = a.every((seg, i) => {
      const m = /^\{(.+)\}$/.exec(seg);
      if (m?.[1]) {
        params[m[1]] = decodeURIComponent(b[i] ?? '');
        return (b[i] ?? '') !== '';
      }
      return seg === b[i];
    });
    if (hit) return { route, params };
  }
  return undefined;
}
