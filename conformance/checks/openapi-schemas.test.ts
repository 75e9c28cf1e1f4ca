import { describe, expect, it } from 'vitest';
import { buildOpenApiDocument } from '../../simulator/contract/openapi.ts';
import { composedOpenApi } from '../e2e/alt-openapi-composed.ts';
import { answerFindings } from './openapi-answers.ts';
import { duplicateParameters, failureCodeGaps } from './openapi-schemas.ts';
import type { OpenApiLike } from './support/openapi.ts';
import { invalidPattern, judgeSchemaObjects } from './support/openapi-schema-meta.ts';
import { schemaObjects } from './support/openapi-schema-objects.ts';
import { allowedValues, declaredProperties } from './support/openapi-schema-values.ts';

// biome-ignore lint/suspicious/noExplicitAny: the tests edit documents of any shape freely
type Json = Record<string, any>;
const simulatorDoc = (): Json => structuredClone(buildOpenApiDocument()) as Json;
const P = (path: string) => `/api/public/v1${path}`;
function* objects(v: unknown): Generator<Json> {
  if (!v || typeof v !== 'object') return;
  if (!Array.isArray(v)) yield v as Json;
  for (const x of Object.values(v)) yield* objects(x);
}

describe('openapi.schemas-valid: Schema Objects against the JSON Schema 2020-12 meta-schema', () => {
  it("passes the simulator's documents (plain and composed) and finds their schemas wherever they stand", () => {
    const doc = simulatorDoc();
    const verdict = judgeSchemaObjects(doc);
    expect(verdict.invalid).toEqual([]);
    expect(verdict.judged).toBeGreaterThan(50);
    expect(judgeSchemaObjects(composedOpenApi(simulatorDoc())).invalid).toEqual([]);
  });

  it('refuses a boolean exclusiveMinimum and a pattern that is no regular expression, in parameters and components', () => {
    const doc = simulatorDoc();
    const cursor = doc.paths[P('/stream')].get.parameters.find((p: Json) => p.name === 'cursor');
    cursor.schema.exclusiveMinimum = true;
    doc.components.schemas.IdempotencyKeyResult.properties.idempotencyKey.pattern = '^[A-Za-z0-9_:-.]{8,128}$';
    const at = judgeSchemaObjects(doc).invalid.map((i) => i.at);
    const index = doc.paths[P('/stream')].get.parameters.indexOf(cursor);
    expect(at).toContain(`#/paths/~1api~1public~1v1~1stream/get/parameters/${index}/schema`);
    expect(at).toContain('#/components/schemas/IdempotencyKeyResult');
  });

  it('accepts patterns only the u flag refuses, OpenAPI annotations, and leaves other dialects and examples alone', () => {
    expect(invalidPattern({ properties: { k: { pattern: '^[\\w.\\:-]+$' } } })).toBeUndefined();
    expect(invalidPattern({ patternProperties: { '^(x': {} } })).toMatch(/patternProperties key/);
    const doc = {
      openapi: '3.1.0',
      components: {
        schemas: {
          A: { type: 'object', discriminator: { propertyName: 'k' }, example: { schema: 5 }, xml: { name: 'a' } },
          B: { $schema: 'http://json-schema.org/draft-07/schema#', exclusiveMinimum: true },
          C: true,
        },
      },
    };
    const verdict = judgeSchemaObjects(doc);
    expect(verdict.invalid).toEqual([]);
    expect(verdict.judged).toBe(2);
    expect(judgeSchemaObjects({ ...doc, jsonSchemaDialect: 'https://example.com/own' }).judged).toBe(0);
  });

  it('bounds its walk of a hostile document', () => {
    const schemas = Object.fromEntries(Array.from({ length: 30 }, (_, i) => [`S${i}`, { type: 'string' }]));
    const { schemas: found, cut } = schemaObjects({ components: { schemas } }, 10);
    expect([found.length, cut]).toEqual([10, true]);
    let deep: Json = { type: 'string' };
    for (let i = 0; i < 5000; i++) deep = { items: deep };
    expect(invalidPattern(deep)).toBeUndefined();
  });
});

describe('openapi.parameters-unique', () => {
  it('names a parameter listed twice; an operation overriding its path item is legal', () => {
    const doc = simulatorDoc();
    expect(duplicateParameters(doc as OpenApiLike)).toEqual([]);
    const get = doc.paths[P('/connectors')].get;
    const category = get.parameters.find((p: Json) => p.name === 'category');
    doc.paths[P('/connectors')].parameters = [structuredClone(category)];
    expect(duplicateParameters(doc as OpenApiLike)).toEqual([]);
    get.parameters.push({ ...structuredClone(category), description: 'Category' });
    expect(duplicateParameters(doc as OpenApiLike)).toEqual([`GET ${P('/connectors')}: query category (2 times)`]);
  });
});

describe('openapi.error-codes-complete', () => {
  it('passes the simulator; names the statuses an enumeration without rate_limited and internal cannot serve', () => {
    expect(failureCodeGaps(simulatorDoc() as OpenApiLike).gaps).toEqual([]);
    const doc = simulatorDoc();
    for (const o of objects(doc))
      if (Array.isArray(o.enum) && o.enum.includes('idempotency_required'))
        o.enum = o.enum.filter((x: string) => x !== 'rate_limited' && x !== 'internal');
    expect(new Set(failureCodeGaps(doc as OpenApiLike).gaps.map((g) => g.status))).toEqual(new Set([429, 500]));
  });

  it('names a code outside the Errors table an enumeration adds (validation_error), once per schema', () => {
    expect(failureCodeGaps(simulatorDoc() as OpenApiLike).foreign).toEqual([]);
    const doc = simulatorDoc();
    for (const o of objects(doc))
      if (Array.isArray(o.enum) && o.enum.includes('idempotency_required')) o.enum = [...o.enum, 'validation_error'];
    const foreign = failureCodeGaps(doc as OpenApiLike).foreign;
    expect(foreign.length).toBeGreaterThan(0);
    expect(foreign.every((f) => f.codes.join() === '"validation_error"')).toBe(true);
  });

  it('reads ranges, default, allOf and const; leaves a free string and public endpoints without the status alone', () => {
    const doc = simulatorDoc();
    const get = doc.paths[P('/providers')].get;
    const envelope = { $ref: '#/components/schemas/FailureEnvelope' };
    const only = (code: string) => ({
      allOf: [envelope, { properties: { error: { properties: { code: { const: code } } } } }],
    });
    for (const s of ['400', '401', '403', '429', '500']) delete get.responses[s];
    get.responses['4XX'] = { description: 'x', content: { 'application/json': { schema: only('invalid_request') } } };
    get.responses.default = { description: 'x', content: { 'application/json': { schema: { type: 'object' } } } };
    const gaps = failureCodeGaps(doc as OpenApiLike).gaps.map((g) => `${g.status} ${g.operations}`);
    expect(new Set(gaps)).toEqual(new Set([401, 403, 404, 409, 428, 429].map((s) => `${s} GET ${P('/providers')}`)));
  });

  it('allowedValues combines enumerations as JSON Schema does, and ends on a cycle', () => {
    const doc = { components: { schemas: { Loop: { $ref: '#/components/schemas/Loop' } } } };
    expect(allowedValues(doc, { $ref: '#/components/schemas/Loop' }, ['error', 'code'])).toBeUndefined();
    const s = { anyOf: [{ enum: ['a', 'b'] }, { const: 'c' }], allOf: [{ enum: ['a', 'c', 'd'] }] };
    expect(allowedValues({}, s, [])).toEqual(new Set(['a', 'c']));
    expect(allowedValues({}, { anyOf: [{ enum: ['a'] }, { type: 'string' }] }, [])).toBeUndefined();
  });
});

describe('openapi.answer-fields-documented', () => {
  it("passes the simulator; names the creation's answer documented as the list", () => {
    expect(answerFindings(simulatorDoc() as OpenApiLike)).toMatchObject({ missing: [], wider: [] });
    const doc = simulatorDoc();
    const list = doc.paths[P('/connections')].get.responses['200'].content['application/json'].schema;
    doc.paths[P('/connections')].post.responses['200'].content['application/json'].schema = structuredClone(list);
    const { missing } = answerFindings(doc as OpenApiLike);
    expect(missing).toHaveLength(1);
    expect(missing[0]).toMatch(/^POST \/api\/public\/v1\/connections .*not id, connectorId, environment/);
  });

  it('names an Environment value the interface lacks in answers, through references and list items', () => {
    const doc = simulatorDoc();
    doc.components.schemas.Environment.enum.push('staging');
    const { wider } = answerFindings(doc as OpenApiLike);
    expect(wider.map((w) => w.split(' (')[0])).toEqual([
      `POST ${P('/capabilities')} data.environment`,
      `GET ${P('/connections')} data.connections[].environment`,
      `POST ${P('/connections')} data.environment`,
    ]);
    expect(declaredProperties(doc, { type: 'object' }, [])).toBeUndefined();
  });
});
