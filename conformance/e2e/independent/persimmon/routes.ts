// The route table (Servant's API type, flattened): the router, the self-description and the OpenAPI
// document all read it, so what is served and what is described cannot drift apart.
import { announceConnection, answer, P, prelude, type Route } from './app.ts';
import { openApiFile, selfDescription } from './describe.ts';
import { ok, readJsonObject, str } from './http.ts';
import { KEY_TTL_SECONDS, newKey } from './idempotency.ts';
import * as res from './resources.ts';
import { WEBHOOK_ROUTES } from './routes-webhooks.ts';

export type { Route } from './app.ts';

export const ROUTES: Route[] = [
  {
    method: 'GET',
    path: P,
    purpose: 'self-description',
    auth: false,
    handle: (_a, ctx) => ok(ctx, selfDescription(ctx)),
  },
  {
    method: 'GET',
    path: `${P}/openapi.json`,
    purpose: 'OpenAPI 3.1 document',
    auth: false,
    handle: (_a, ctx) => openApiFile(ctx, ctx.version, 'json'),
  },
  {
    method: 'GET',
    path: `${P}/openapi/{version}.json`,
    purpose: 'OpenAPI document of one version (JSON file)',
    auth: false,
    handle: (_a, ctx, p) => openApiFile(ctx, p.version ?? '', 'json'),
  },
  {
    method: 'GET',
    path: `${P}/openapi/{version}.yaml`,
    purpose: 'OpenAPI document of one version (YAML file)',
    auth: false,
    handle: (_a, ctx, p) => openApiFile(ctx, p.version ?? '', 'yaml'),
  },
  {
    method: 'GET',
    path: `${P}/info`,
    purpose: 'service information',
    auth: false,
    handle: (_a, ctx) =>
      ok(ctx, {
        service: 'persimmon',
        environment: 'sandbox',
        version: ctx.version,
        versions: ['2026-07-01', '2026-06-12'],
        tenantHeader: 'x-service-tenant',
        tokenUrl: '/oauth2/token',
      }),
  },
  {
    method: 'GET',
    path: `${P}/providers`,
    purpose: 'list providers',
    auth: true,
    handle: (a, ctx) => {
      prelude(a, ctx);
      ok(ctx, res.listProviders(ctx));
    },
  },
  {
    method: 'GET',
    path: `${P}/connectors`,
    purpose: 'list connectors',
    auth: true,
    handle: (a, ctx) => {
      prelude(a, ctx);
      ok(ctx, res.listConnectors(ctx));
    },
  },
  {
    method: 'GET',
    path: `${P}/capabilities`,
    purpose: 'capability catalog',
    auth: true,
    handle: (a, ctx) => {
      prelude(a, ctx);
      ok(ctx, res.listCapabilities());
    },
  },
  {
    method: 'POST',
    path: `${P}/capabilities`,
    purpose: 'check a capability of a connector',
    auth: true,
    handle: async (a, ctx) => {
      prelude(a, ctx);
      ok(ctx, res.checkCapability((await readJsonObject(ctx)).body));
    },
  },
  {
    method: 'GET',
    path: `${P}/connections`,
    purpose: 'connections of the tenant',
    auth: true,
    handle: (a, ctx) => ok(ctx, res.listConnections(a.store, prelude(a, ctx).tenant)),
  },
  {
    method: 'POST',
    path: `${P}/connections`,
    purpose: 'create a connection',
    auth: true,
    handle: async (a, ctx) => {
      const caller = prelude(a, ctx);
      const key = a.idem.requireKey(ctx);
      const { body } = await readJsonObject(ctx);
      const v = res.validateCreation(body);
      answer(
        ctx,
        a.idem.run(ctx, caller.tenant, key, body, () => {
          const connection = res.createConnection(a.store, caller.tenant, v);
          announceConnection(a, caller, connection);
          return connection;
        }),
      );
    },
  },
  {
    method: 'POST',
    path: `${P}/idempotency-keys`,
    purpose: 'generate an idempotency key',
    auth: true,
    handle: async (a, ctx) => {
      prelude(a, ctx);
      const operation = str((await readJsonObject(ctx)).body, 'operation', 2, 80) ?? '';
      const expiresAt = new Date(Date.now() + KEY_TTL_SECONDS * 1000).toISOString().replace('.000Z', 'Z');
      ok(ctx, { idempotencyKey: newKey(), operation, expiresAt });
    },
  },
  {
    method: 'GET',
    path: `${P}/stream`,
    purpose: 'status stream (Server-Sent Events)',
    auth: false,
    handle: (a, ctx) => a.stream.open(ctx),
  },
  ...WEBHOOK_ROUTES,
  {
    method: 'GET',
    path: `${P}/audit-log`,
    purpose: 'audit log with a hash-chain proof',
    auth: true,
    handle: (a, ctx) => ok(ctx, a.audit.page(ctx, prelude(a, ctx).tenant)),
  },
];
