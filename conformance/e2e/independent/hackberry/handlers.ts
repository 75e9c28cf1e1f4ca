// One handler per route id, as the team's `Dream.router` entries: authenticate, decode, answer.
import { readAudit } from './audit.ts';
import { authenticate, type Principal } from './auth.ts';
import { BASE, type Call, Failure, ok, type Rec, readJson, sendJson, VERSION } from './http.ts';
import { idempotent, issueKey, requireKey } from './idempotency.ts';
import { openapiDocument, toYaml } from './openapi.ts';
import {
  checkCapability,
  createConnection,
  listCapabilities,
  listConnections,
  listConnectors,
  listProviders,
  validateConnection,
} from './resources.ts';
import { ROUTES } from './routes.ts';
import type { Store } from './state.ts';
import { openStream } from './stream.ts';
import { createWebhook, deleteWebhook, listAttempts, retryAttempt } from './webhooks.ts';

type Handler = (call: Call, store: Store, params: Record<string, string>) => Promise<void> | void;

function describe(call: Call): void {
  ok(call, {
    service: 'hackberry',
    surface: 'public',
    version: VERSION,
    authentication: {
      type: 'oauth2',
      flow: 'client_credentials',
      tokenUrl: '/auth/token',
      tenantHeader: 'x-service-tenant',
    },
    idempotency: { header: 'Idempotency-Key', pattern: '^[A-Za-z0-9._:-]{8,128}$', ttlSeconds: 86400 },
    webhooks: { events: ['connection.created', 'connection.state_changed', 'order.created', 'order.paid'] },
    routes: ROUTES.map((r) => ({ method: r.method, path: r.path, purpose: r.purpose, auth: r.auth })),
  });
}

function versionFile(call: Call, params: Record<string, string>, yaml: boolean): void {
  const v = params.version ?? '';
  if (!['2026-06-12', VERSION].includes(v)) throw new Failure('not_found', 'no OpenAPI document for this version');
  const doc = openapiDocument(v);
  const body = yaml ? `${toYaml(doc).trimStart()}\n` : JSON.stringify(doc, null, 2);
  call.res.writeHead(200, {
    'content-type': yaml ? 'application/yaml; charset=utf-8' : 'application/json; charset=utf-8',
    'content-disposition': `attachment; filename="hackberry-openapi-${v}.${yaml ? 'yaml' : 'json'}"`,
    'x-request-id': call.requestId,
  });
  call.res.end(body);
}

/** Modifying calls: key first (428 before anything is decoded), then the body, then the record. */
async function keyed(call: Call, store: Store, run: (who: Principal, body: Rec) => Rec, check?: (b: Rec) => void) {
  const who = authenticate(call, store);
  const key = requireKey(call);
  // A removal or a retry carries no body; its fingerprint is then the empty object.
  const body = await readJson(call, call.req.method === 'DELETE' || call.path.endsWith('/retry'));
  idempotent(store, call, who, key, body, () => {
    check?.(body);
    return run(who, body);
  });
}

export const HANDLERS: Record<string, Handler> = {
  describe,
  // The team's envelope middleware wraps every JSON success, the document too (data is the OpenAPI object);
  // the per-version files below are the bare document, as downloads.
  openapi: (call, store) =>
    store.options.openapiEnvelope ? ok(call, openapiDocument()) : sendJson(call, 200, openapiDocument(VERSION, false)),
  openapiJsonFile: (call, _s, p) => versionFile(call, p, false),
  openapiYamlFile: (call, _s, p) => versionFile(call, p, true),
  info: (call, store) => {
    const who = authenticate(call, store);
    ok(call, { service: 'hackberry', version: VERSION, tenant: who.tenant, clientId: who.clientId, baseUrl: BASE });
  },
  listProviders: (call, store) => {
    authenticate(call, store);
    ok(call, listProviders(call.query));
  },
  listConnectors: (call, store) => {
    authenticate(call, store);
    ok(call, listConnectors(call.query));
  },
  listCapabilities: (call, store) => {
    authenticate(call, store);
    ok(call, listCapabilities());
  },
  checkCapability: async (call, store) => {
    authenticate(call, store);
    ok(call, checkCapability(await readJson(call)));
  },
  listConnections: (call, store) => ok(call, listConnections(store, authenticate(call, store))),
  createConnection: (call, store) =>
    keyed(call, store, (who, body) => createConnection(store, who, body), validateConnection),
  createIdempotencyKey: async (call, store) => {
    authenticate(call, store);
    ok(call, issueKey(await readJson(call)));
  },
  stream: (call, store) => openStream(call, store),
  createWebhook: (call, store) => keyed(call, store, (who, body) => createWebhook(store, who, body)),
  deleteWebhook: (call, store, p) => keyed(call, store, (who) => deleteWebhook(store, who, p.webhookId ?? '')),
  listWebhookAttempts: (call, store, p) => ok(call, listAttempts(store, authenticate(call, store), p.webhookId ?? '')),
  retryWebhookAttempt: (call, store, p) =>
    keyed(call, store, (who) => retryAttempt(store, who, p.webhookId ?? '', p.attemptId ?? '')),
  auditLog: (call, store) => ok(call, readAudit(store, authenticate(call, store), call.query)),
};
