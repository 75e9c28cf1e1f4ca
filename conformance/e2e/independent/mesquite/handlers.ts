// The dispatch table: which resource function answers which route, and the two small public ones
// (self-description, /info) that live beside the route table.
import { auditLog } from './audit.ts';
import { TOKEN_PATH } from './auth.ts';
import { ApiError, type Ctx, ok, sendJson } from './http.ts';
import { issueKey, readKey } from './idempotency.ts';
import { openapiDoc } from './openapi.ts';
import {
  checkCapability,
  createConnection,
  listCapabilities,
  listConnections,
  listConnectors,
  listProviders,
} from './resources.ts';
import { ROUTES } from './routes.ts';
import { VERSION, VERSIONS } from './state.ts';
import { openStream } from './stream.ts';
import { createWebhook, deleteWebhook, deliveryLog, listWebhooks, redeliver } from './webhooks.ts';
import { toYaml } from './yaml.ts';

const origin = (ctx: Ctx): string => `http://${ctx.req.headers.host ?? '127.0.0.1'}`;

function describe(ctx: Ctx): void {
  ok(ctx, {
    service: 'network-connections',
    surface: 'public',
    version: ctx.version,
    authentication: {
      type: 'oauth2',
      flow: 'client_credentials',
      tokenUrl: `${origin(ctx)}${TOKEN_PATH}`,
      clientAuthentication: ['client_secret_basic', 'client_secret_post'],
      tenantHeader: 'x-service-tenant',
      gateway: 'choreo',
    },
    idempotency: {
      header: 'Idempotency-Key',
      pattern: '^[A-Za-z0-9._:-]{8,128}$',
      requiredOn: ['POST /connections', 'POST /webhooks'],
      keyValidity: 'P1D',
    },
    webhooks: {
      events: ['connection.created', 'connection.activated', 'webhook.test'],
      signatureHeader: 'X-Mesquite-Signature',
    },
    routes: ROUTES.filter((r) => !r.since || r.since <= ctx.version).map((r) => ({
      method: r.method,
      path: `/api/public/v1${r.path}`,
      purpose: r.purpose,
      auth: r.auth,
    })),
  });
}

function openapiFile(ctx: Ctx, version: string, yaml: boolean): void {
  if (!(VERSIONS as readonly string[]).includes(version))
    throw new ApiError('not_found', `No description exists for version '${version}'.`);
  const doc = openapiDoc(origin(ctx), version);
  const text = yaml ? toYaml(doc) : JSON.stringify(doc, null, 2);
  ctx.res.writeHead(200, {
    'content-type': yaml ? 'application/yaml' : 'application/json',
    'content-disposition': `attachment; filename="network-connections-${version}.${yaml ? 'yaml' : 'json'}"`,
    activityid: ctx.requestId,
  });
  ctx.res.end(text);
}

type Handler = (ctx: Ctx, params: string[]) => void;

export const HANDLERS: Record<string, Handler> = {
  getServiceDescription: describe,
  getOpenApi: (ctx) => sendJson(ctx, 200, openapiDoc(origin(ctx), ctx.version === VERSION ? VERSION : ctx.version)),
  downloadOpenApiJson: (ctx, [v]) => openapiFile(ctx, v ?? '', false),
  downloadOpenApiYaml: (ctx, [v]) => openapiFile(ctx, v ?? '', true),
  getInfo: (ctx) =>
    ok(ctx, {
      service: 'network-connections',
      deployment: 'mesquite',
      environment: 'sandbox',
      version: ctx.version,
      clientId: ctx.clientId,
      tenant: ctx.tenant,
    }),
  getProviders: listProviders,
  getConnectors: listConnectors,
  getCapabilities: listCapabilities,
  postCapabilities: checkCapability,
  getConnections: listConnections,
  postConnections: createConnection,
  postIdempotencyKeys: issueKey,
  getStream: openStream,
  getWebhooks: listWebhooks,
  postWebhooks: createWebhook,
  deleteWebhook: (ctx, [id]) => {
    readKey(ctx, false);
    deleteWebhook(ctx, id ?? '');
  },
  getDeliveryAttempts: (ctx, [id]) => deliveryLog(ctx, id ?? ''),
  retryDeliveryAttempt: (ctx, [id, attempt]) => redeliver(ctx, id ?? '', attempt ?? ''),
  getAuditLog: auditLog,
};
