import { Validator } from '@seriousme/openapi-schema-validator';
import { describe, expect, it } from 'vitest';
import { buildAuthServerDocument, buildControlPlaneDocument, buildOpenApiDocument } from './openapi.ts';
import { ROUTES } from './route-table.ts';
import { SUPPORTED_VERSIONS } from './versions.ts';

describe('generated OpenAPI document', () => {
  it('says format date-time wherever the interface says "string, date-time" (meta.at, createdAt, expiresAt)', () => {
    const schemas = buildOpenApiDocument().components?.schemas as Record<
      string,
      { properties?: Record<string, { format?: string }> }
    >;
    const formatOf = (schema: string, field: string) => schemas[schema]?.properties?.[field]?.format;
    expect(formatOf('Connection', 'createdAt')).toBe('date-time');
    expect(formatOf('IdempotencyKeyResult', 'expiresAt')).toBe('date-time');
    expect(formatOf('Meta', 'at')).toBe('date-time');
  });

  for (const version of SUPPORTED_VERSIONS) {
    it(`is a valid OpenAPI 3.1 document (${version}) by an independent validator`, async () => {
      const validator = new Validator();
      const result = await validator.validate(buildOpenApiDocument({ version }) as never);
      expect(result.errors ?? []).toEqual([]);
      expect(result.valid).toBe(true);
      expect(validator.version).toBe('3.1');
    });
  }

  it('has one operation per route-table row, with its scope in security', () => {
    const doc = buildOpenApiDocument();
    for (const r of ROUTES.filter((x) => !x.since)) {
      const op = (doc.paths as Record<string, Record<string, { operationId: string; security: unknown[] }>>)[r.path]?.[
        r.method.toLowerCase()
      ];
      expect(op?.operationId, r.id).toBe(r.id);
      if (r.auth) expect(op!.security).toEqual([{ oauth2: [r.scope] }]);
    }
  });

  it('states the exact limits of the interface', () => {
    const schemas = JSON.stringify(buildOpenApiDocument());
    expect(schemas).toContain('"minLength":2,"maxLength":120');
    expect(schemas).toContain('"minItems":1,"maxItems":24');
    expect(schemas).toContain('"minLength":2,"maxLength":80');
    expect(schemas).toContain('^[A-Za-z0-9._:-]{8,128}$');
  });

  it('declares what third-party tools need: stream errors and headers, answer headers, descriptions, tags', () => {
    const doc = buildOpenApiDocument() as unknown as {
      servers: { url: string }[];
      tags: { name: string; description: string }[];
      paths: Record<string, Record<string, Operation>>;
    };
    type Operation = {
      description?: string;
      tags: string[];
      parameters?: { name: string; in: string }[];
      responses: Record<string, { headers?: Record<string, unknown> }>;
    };
    expect(doc.servers).toEqual([{ url: '/' }]);
    const stream = doc.paths['/api/public/v1/stream']!.get!;
    expect(Object.keys(stream.responses)).toEqual(expect.arrayContaining(['200', '401', '403']));
    const params = stream.parameters!.map((p) => `${p.in}:${p.name}`);
    expect(params).toEqual(expect.arrayContaining(['header:Last-Event-ID', 'header:x-service-tenant', 'query:cursor']));
    const providers = doc.paths['/api/public/v1/providers']!.get!;
    expect(Object.keys(providers.responses['200']!.headers!)).toEqual([
      'X-Request-Id',
      'X-RateLimit-Limit',
      'X-RateLimit-Remaining',
    ]);
    expect(providers.responses['429']!.headers).toHaveProperty('Retry-After');
    expect(providers.responses['401']!.headers).toHaveProperty('WWW-Authenticate');
    const defined = new Set(doc.tags.map((t) => t.name));
    for (const [path, ops] of Object.entries(doc.paths))
      for (const op of Object.values(ops)) {
        expect(op.description, path).toMatch(/\w{3,}/);
        for (const tag of op.tags) expect(defined.has(tag), `${path} tag ${tag}`).toBe(true);
      }
    for (const tag of doc.tags) expect(tag.description, tag.name).not.toBe(tag.name);
  });

  it('every $ref of every generated document resolves (a dangling one makes the router answer 404 to everything)', async () => {
    const { OAUTH_ROUTES } = await import('../auth-server/routes.ts');
    const { CONTROL_DOCUMENT_ROUTES } = await import('../control/run-route.ts');
    const docs = {
      api: buildOpenApiDocument(),
      control: buildControlPlaneDocument(CONTROL_DOCUMENT_ROUTES),
      oauth: buildAuthServerDocument(OAUTH_ROUTES),
    };
    for (const [name, doc] of Object.entries(docs)) {
      const refs = [...JSON.stringify(doc).matchAll(/"\$ref":"#\/([^"]+)"/g)].map((m) => m[1]!);
      for (const ref of refs) {
        const target = ref.split('/').reduce<unknown>((node, key) => (node as Record<string, unknown>)?.[key], doc);
        expect(target, `${name}: #/${ref}`).toBeDefined();
      }
    }
  });
});
