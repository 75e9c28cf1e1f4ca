// The OpenAPI 3.1 document, written by hand as the Zig team keeps it (a JSON file embedded with
// @embedFile): `servers` names the base path and the paths are relative to it.
import { ApiError, type Ctx, sendJson } from './http.ts';
import {
  components,
  errors,
  free,
  idem,
  jsonBody,
  len,
  list,
  obj,
  okResponse,
  op,
  pathId,
  ref,
  str,
  toYaml,
} from './openapi-parts.ts';
import { EVENT_NAMES, type Rec, VERSION, VERSIONS } from './state.ts';

export function openapi(version: string = VERSION, maxPage = 200): Rec {
  return {
    openapi: '3.1.0',
    info: { title: 'Network Connections Service (boxelder)', version },
    servers: [{ url: '/api/public/v1' }],
    security: [{ oauth2: [] }],
    paths: {
      '/': { get: op('Self description', okResponse(free), {}, false) },
      '/openapi.json': {
        get: op(
          'OpenAPI document',
          { 200: { description: 'OpenAPI 3.1', content: { 'application/json': { schema: free } } } },
          {},
          false,
        ),
      },
      ...Object.fromEntries(
        VERSIONS.flatMap((v) => [
          [
            `/openapi/${v}.json`,
            {
              get: op(
                `OpenAPI JSON file ${v}`,
                { 200: { description: 'JSON file', content: { 'application/json': { schema: free } } } },
                {},
                false,
              ),
            },
          ],
          [
            `/openapi/${v}.yaml`,
            {
              get: op(
                `OpenAPI YAML file ${v}`,
                { 200: { description: 'YAML file', content: { 'application/yaml': { schema: str } } } },
                {},
                false,
              ),
            },
          ],
        ]),
      ),
      '/info': { get: op('Caller info', okResponse(free)) },
      '/providers': {
        get: op('List providers', okResponse(list('providers', ref('Provider'))), {
          parameters: [{ name: 'category', in: 'query', schema: str }],
        }),
      },
      '/connectors': {
        get: op('List connectors', okResponse(list('connectors', ref('Connector'))), {
          parameters: ['capability', 'providerId', 'category'].map((name) => ({ name, in: 'query', schema: str })),
        }),
      },
      '/capabilities': {
        get: op('List capabilities', okResponse(list('capabilities', ref('Capability')))),
        post: op(
          'Check capability',
          okResponse(obj({ decision: ref('CapabilityDecision'), environment: ref('Environment') })),
          {
            requestBody: jsonBody(
              obj({ connectorId: len(2, 120), capability: len(2, 120), environment: ref('Environment') }, [
                'connectorId',
                'capability',
              ]),
            ),
          },
        ),
      },
      '/connections': {
        get: op('List connections', okResponse(list('connections', ref('Connection'), { tenant: str }))),
        post: op('Create connection', okResponse(ref('Connection')), {
          parameters: [idem],
          requestBody: jsonBody(
            obj({
              connectorId: len(2, 120),
              environment: ref('Environment'),
              scopeLabel: len(2, 120),
              capabilities: { type: 'array', minItems: 1, maxItems: 24, items: len(2, 120) },
            }),
          ),
        }),
      },
      '/idempotency-keys': {
        post: op(
          'Create idempotency key',
          okResponse(obj({ idempotencyKey: str, operation: str, expiresAt: { type: 'string', format: 'date-time' } })),
          { requestBody: jsonBody(obj({ operation: len(2, 80) })) },
        ),
      },
      '/stream': {
        get: op(
          'Status stream',
          { 200: { description: 'Server-Sent Events', content: { 'text/event-stream': { schema: str } } }, ...errors },
          {
            parameters: [
              { name: 'cursor', in: 'query', schema: { type: 'integer', minimum: 0 } },
              { name: 'Last-Event-ID', in: 'header', schema: str },
            ],
          },
          false,
        ),
      },
      '/webhooks': {
        get: op('List webhooks', okResponse(free)),
        post: op('Create webhook', okResponse(free), {
          parameters: [idem],
          requestBody: jsonBody(
            obj({ url: str, events: { type: 'array', minItems: 1, items: { type: 'string', enum: EVENT_NAMES } } }),
          ),
        }),
      },
      '/webhooks/{webhook_id}': {
        get: op('Get webhook', okResponse(free), { parameters: [pathId('webhook_id')] }),
        delete: op('Delete webhook', okResponse(free), { parameters: [pathId('webhook_id'), idem] }),
      },
      '/webhooks/{webhook_id}/delivery-log': {
        get: op('List webhook deliveries', okResponse(free), { parameters: [pathId('webhook_id')] }),
      },
      '/webhooks/{webhook_id}/delivery-log/{delivery_id}/resend': {
        post: op('Resend webhook delivery', okResponse(free), {
          parameters: [pathId('webhook_id'), pathId('delivery_id'), idem],
        }),
      },
      '/audit-log': {
        get: op('Audit log', okResponse(free), {
          parameters: [
            { name: 'limit', in: 'query', schema: { type: 'integer', minimum: 1, maximum: maxPage } },
            ...['after', 'before'].map((name) => ({ name, in: 'query', schema: { type: 'integer', minimum: 0 } })),
          ],
        }),
      },
    },
    components: components(),
  };
}

/** The document at its interface path, in the version the call asked for. */
export function openapiJson(ctx: Ctx): void {
  sendJson(ctx, 200, openapi(ctx.version, ctx.store.opts.auditMaxPage));
}

export function openapiFile(ctx: Ctx, file: string): void {
  const m = /^(\d{4}-\d{2}-\d{2})\.(json|yaml)$/.exec(file);
  const version = m?.[1];
  if (!m || !version || !(VERSIONS as readonly string[]).includes(version))
    throw new ApiError('not_found', 'no such OpenAPI file');
  const disposition = { 'content-disposition': `attachment; filename="boxelder-openapi-${file}"` };
  if (m[2] === 'json') {
    sendJson(ctx, 200, openapi(version, ctx.store.opts.auditMaxPage), disposition);
    return;
  }
  const text = `${toYaml(openapi(version, ctx.store.opts.auditMaxPage)).trimStart()}\n`;
  ctx.res.writeHead(200, {
    'content-type': 'application/yaml',
    'content-length': String(Buffer.byteLength(text)),
    'x-request-id': ctx.requestId,
    ...ctx.headers,
    ...disposition,
  });
  ctx.res.end(text);
}
