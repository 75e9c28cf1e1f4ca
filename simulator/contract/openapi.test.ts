import { Validator } from '@seriousme/openapi-schema-validator';
import { describe, expect, it } from 'vitest';
import { buildOpenApiDocument } from './openapi.ts';
import { ROUTES } from './route-table.ts';
import { SUPPORTED_VERSIONS } from './versions.ts';

describe('generated OpenAPI document', () => {
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
});
