import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { Validator } from '@seriousme/openapi-schema-validator';
import type { ValidateFunction } from 'ajv';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildOpenApiDocument } from '../../../simulator/contract/openapi.ts';
import { prebuiltOpenApiSchemaModule } from '../../../simulator/package/prebuilt.ts';
import { withPrebuiltSchema } from '../discovery.ts';
import { PREBUILT_OPENAPI_31_SCHEMA } from './prebuilt-openapi-schema.ts';

// The build's function in place of the validator's own compile gives the same verdicts and errors.
describe('the OpenAPI 3.1 schema function prebuilt by npm run build', () => {
  let dir: string;
  let prebuilt: ValidateFunction;
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'ncs-prebuilt-schema-'));
    const file = join(dir, 'prebuilt-openapi-schema.mjs');
    writeFileSync(file, prebuiltOpenApiSchemaModule());
    prebuilt = (await import(pathToFileURL(file).href)).PREBUILT_OPENAPI_31_SCHEMA;
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('is none from source (the validator compiles the schema itself)', () => {
    expect(PREBUILT_OPENAPI_31_SCHEMA).toBeUndefined();
    const v = withPrebuiltSchema(new Validator());
    expect((v as unknown as { ajvValidators: object }).ajvValidators).toEqual({});
  });

  const doc = () => buildOpenApiDocument({}) as unknown as Record<string, unknown>;
  const broken: Record<string, () => Record<string, unknown>> = {
    'the reference document': doc,
    'no info': () => ({ ...doc(), info: undefined }),
    'a path not starting with /': () => ({ ...doc(), paths: { nope: {} } }),
    'a response without description': () => {
      const d = doc() as { paths: Record<string, Record<string, { responses: Record<string, object> }>> };
      const op = Object.values(Object.values(d.paths)[0] ?? {})[0];
      if (op) op.responses['200'] = { content: {} };
      return d;
    },
    'a server url that is not a string': () => ({ ...doc(), servers: [{ url: 7 }] }),
    'an unknown top-level field': () => ({ ...doc(), extra: true }),
    'a dangling $ref': () => ({ ...doc(), paths: { '/x': { get: { $ref: '#/nowhere' } } } }),
  };
  for (const [name, make] of Object.entries(broken)) {
    it(`gives the verdict and errors the validator compiles itself: ${name}`, async () => {
      let calls = 0;
      const counted = Object.assign(
        (data: unknown) => {
          calls++;
          const ok = prebuilt(data);
          counted.errors = prebuilt.errors;
          return ok;
        },
        { errors: null as ValidateFunction['errors'] },
      );
      const own = await new Validator().validate(make());
      const built = await withPrebuiltSchema(new Validator(), counted as unknown as ValidateFunction).validate(make());
      expect(calls).toBe(1);
      expect(built).toEqual(own);
      if (name !== 'the reference document') expect(own.valid).toBe(false);
    });
  }
});
