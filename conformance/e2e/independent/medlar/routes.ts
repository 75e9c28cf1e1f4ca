// The route table as Next.js App Router folders (app/api/public/v1/.../route.ts, `[param]` segments), with the
// public routes: self-description, info, OpenAPI document and files, and the status stream.
import { TOKEN_PATH } from './auth.ts';
import { CURRENT_VERSION, OPERATIONS, openapiDocument, VERSIONS } from './openapi.ts';
import { capabilitiesRoute, connectorsRoute, providersRoute } from './routes-catalog.ts';
import { auditLogRoute, connectionsRoute, idempotencyKeysRoute } from './routes-connections.ts';
import { messagesRoute, replayRoute, webhookRoute, webhooksRoute } from './routes-webhooks.ts';
import { prepareStream } from './stream.ts';
import type { RouteModule } from './types.ts';
import { isoNow, notFound, ok } from './util.ts';
import { MESSAGE_ID_HEADER, SIGNATURE_HEADER, WEBHOOK_EVENTS } from './webhooks.ts';
import { toYaml } from './yaml.ts';

const selfRoute: RouteModule = {
  public: true,
  GET(ctx) {
    return ok({
      service: 'Network Connections Service',
      surface: 'public',
      version: ctx.version,
      versions: [...VERSIONS],
      authentication: {
        type: 'oauth2',
        flow: 'client_credentials',
        tokenEndpoint: `${ctx.baseOrigin}${TOKEN_PATH}`,
        metadata: `${ctx.baseOrigin}/.well-known/oauth-authorization-server`,
        tokenFormat: 'opaque m2m_ token',
        headers: { authorization: 'Bearer <token>', tenant: 'x-service-tenant' },
      },
      idempotency: {
        header: 'Idempotency-Key',
        pattern: '^[A-Za-z0-9._:-]{8,128}$',
        requiredOn: OPERATIONS.filter((o) => o.key).map((o) => `${o.method} ${o.path}`),
        validitySeconds: ctx.app.settings.idempotencyTtlSeconds,
      },
      openapi: {
        document: `${ctx.baseOrigin}/api/public/v1/openapi.json`,
        files: VERSIONS.flatMap((v) =>
          ['json', 'yaml'].map((ext) => `${ctx.baseOrigin}/api/public/v1/openapi/${v}.${ext}`),
        ),
      },
      webhooks: { events: [...WEBHOOK_EVENTS], signatureHeader: SIGNATURE_HEADER, messageIdHeader: MESSAGE_ID_HEADER },
      routes: OPERATIONS.map((o) => ({ method: o.method, path: o.path, purpose: o.purpose, auth: o.auth })),
    });
  },
};

const infoRoute: RouteModule = {
  public: true,
  GET(ctx) {
    return ok({
      service: 'Network Connections Service',
      deployment: 'medlar',
      version: ctx.version,
      environment: 'sandbox',
      region: 'fra1',
      time: isoNow(),
    });
  },
};

const openapiRoute: RouteModule = {
  public: true,
  GET(ctx) {
    return ok(openapiDocument(ctx.version, ctx.baseOrigin, `${ctx.baseOrigin}${TOKEN_PATH}`));
  },
};

const openapiFileRoute: RouteModule = {
  public: true,
  GET(ctx) {
    const m = /^(\d{4}-\d{2}-\d{2})\.(json|yaml|yml)$/.exec(ctx.params.file ?? '');
    if (!m || !(VERSIONS as readonly string[]).includes(m[1] as string)) throw notFound('No such OpenAPI file.');
    const doc = openapiDocument(m[1] as string, ctx.baseOrigin, `${ctx.baseOrigin}${TOKEN_PATH}`);
    return {
      status: 200,
      raw: {
        contentType: m[2] === 'json' ? 'application/json' : 'application/yaml',
        body: m[2] === 'json' ? JSON.stringify(doc, null, 2) : toYaml(doc),
      },
      headers: { 'content-disposition': `attachment; filename="ncs-openapi-${ctx.params.file}"` },
    };
  },
};

const streamRoute: RouteModule = {
  public: true,
  GET(ctx) {
    prepareStream(ctx)();
    return 'streamed';
  },
};

/** Folder path -> route module, in the order Next.js would prefer (static segments before dynamic ones). */
export const ROUTES: [string, RouteModule][] = [
  ['/api/public/v1', selfRoute],
  ['/api/public/v1/info', infoRoute],
  ['/api/public/v1/openapi.json', openapiRoute],
  ['/api/public/v1/openapi/[file]', openapiFileRoute],
  ['/api/public/v1/providers', providersRoute],
  ['/api/public/v1/connectors', connectorsRoute],
  ['/api/public/v1/capabilities', capabilitiesRoute],
  ['/api/public/v1/connections', connectionsRoute],
  ['/api/public/v1/idempotency-keys', idempotencyKeysRoute],
  ['/api/public/v1/stream', streamRoute],
  ['/api/public/v1/webhooks', webhooksRoute],
  ['/api/public/v1/webhooks/[webhookId]', webhookRoute],
  ['/api/public/v1/webhooks/[webhookId]/messages', messagesRoute],
  ['/api/public/v1/webhooks/[webhookId]/messages/[messageId]/replay', replayRoute],
  ['/api/public/v1/audit-log', auditLogRoute],
];

function safeDecode(p: string): string {
  try {
    return decodeURIComponent(p);
  } catch {
    return p;
  }
}

/** The route module and its params for a path, as the file-system router resolves it. */
export function match(pathname: string): { module: RouteModule; params: Record<string, string> } | undefined {
  const parts = pathname.replace(/\/+$/, '').split('/');
  for (const [pattern, module] of ROUTES) {
    const segs = pattern.split('/');
    if (segs.length !== parts.length) continue;
    const params: Record<string, string> = {};
    let hit = true;
    for (let i = 0; i < segs.length && hit; i++) {
      const s = segs[i] as string;
      const p = parts[i] as string;
      if (s.startsWith('[') && s.endsWith(']')) {
        if (p === '') hit = false;
        else params[s.slice(1, -1)] = safeDecode(p);
      } else if (s !== p) hit = false;
    }
    if (hit) return { module, params };
  }
  return undefined;
}

export { CURRENT_VERSION };
