import { describe, expect, it } from 'vitest';
import type { z } from 'zod';
import { IdempotencyKey } from '../../../simulator/contract/idempotency.ts';
import { buildOpenApiDocument } from '../../../simulator/contract/openapi.ts';
import { composedOpenApi } from '../../e2e/alt-openapi-composed.ts';
import { documentedSuccess } from '../openapi-documented.ts';
import type { OpenApiLike } from './openapi.ts';
import { boundaryCases, edgeCharacters, limitedFields } from './openapi-limits.ts';
import { judgeLimits } from './openapi-limits-judge.ts';

// biome-ignore lint/suspicious/noExplicitAny: the tests edit documents of any shape freely
type Json = Record<string, any>;
const simulatorDoc = (): Json => structuredClone(buildOpenApiDocument()) as Json;
const KEY = IdempotencyKey as unknown as z.ZodType;
/** Every schema object of the document (a walk, like the unseen proxy's edits). */
function* objects(v: unknown): Generator<Json> {
  if (!v || typeof v !== 'object') return;
  if (!Array.isArray(v)) yield v as Json;
  for (const x of Object.values(v)) yield* objects(x);
}
const kinds = (doc: Json) => judgeLimits(doc as OpenApiLike).findings.map((f) => `${f.kind} ${f.field.name}`);

describe('boundary values derived from the contract', () => {
  it("agree with the contract's zod schemas on every value", () => {
    const fields = limitedFields();
    expect(new Set(fields.map((f) => f.name))).toEqual(
      new Set([
        'connectorId',
        'capability',
        'environment',
        'scopeLabel',
        'capabilities',
        'operation',
        'cursor',
        'Idempotency-Key',
      ]),
    );
    for (const f of fields) {
      const schema =
        f.in === 'header'
          ? KEY
          : ((f.in === 'body' ? f.route.body : f.route.query) as unknown as { shape: Record<string, z.ZodType> }).shape[
              f.name
            ];
      for (const c of f.cases)
        if (f.in !== 'query') expect(schema?.safeParse(c.value).success, `${f.name} ${c.what}`).toBe(c.valid);
      expect(f.cases.some((c) => c.valid) && f.cases.some((c) => !c.valid), f.name).toBe(true);
    }
  });

  it('takes the key length and characters from its pattern', () => {
    const key = limitedFields().find((f) => f.name === 'Idempotency-Key');
    const cases = boundaryCases(key?.type ?? { type: 'other' });
    expect(cases.filter((c) => c.valid).map((c) => (c.value as string).length)).toContain(128);
    expect(cases.find((c) => c.what.startsWith('7 characters'))?.valid).toBe(false);
    expect(edgeCharacters([...'-.0123456789:ABZ_az'])).toEqual(['-', '.', '0', ':', 'A', 'B', 'Z', '_', 'a', 'z']);
  });
});

describe('judgeLimits: the documented schemas against the interface', () => {
  it("finds nothing in the simulator's document, nor in the same document composed with $ref and allOf", () => {
    expect(kinds(simulatorDoc())).toEqual([]);
    expect(kinds(composedOpenApi(simulatorDoc()))).toEqual([]);
    expect(judgeLimits(simulatorDoc() as OpenApiLike).notJudged).toEqual([]);
  });

  it('a narrower key pattern is narrower on every keyed operation', () => {
    const doc = simulatorDoc();
    for (const o of objects(doc)) if (o.pattern === '^[A-Za-z0-9._:-]{8,128}$') o.pattern = '^[A-Za-z0-9_-]{16,64}$';
    const found = judgeLimits(doc as OpenApiLike).findings;
    expect(new Set(found.map((f) => `${f.kind} ${f.field.route.path} ${f.field.name}`))).toEqual(
      new Set([
        'narrower /api/public/v1/connections Idempotency-Key',
        'narrower /api/public/v1/webhooks Idempotency-Key',
      ]),
    );
  });

  it('a left-out maxLength is wider (SHOULD), a smaller one narrower (MUST)', () => {
    const doc = simulatorDoc();
    delete doc.components.schemas.CreateConnectionRequest.properties.scopeLabel.maxLength;
    doc.components.schemas.CreateIdempotencyKeyRequest.properties.operation.maxLength = 64;
    expect(new Set(kinds(doc))).toEqual(new Set(['wider scopeLabel', 'narrower operation']));
  });

  it('an enumeration left out or cut short, item counts and cursor minimum are judged', () => {
    const doc = simulatorDoc();
    const create = doc.components.schemas.CreateConnectionRequest.properties;
    create.environment = { type: 'string', enum: ['sandbox', 'production'] };
    create.capabilities.maxItems = 30;
    doc.components.schemas.CapabilityCheckRequest.properties.environment = { type: 'string' };
    doc.paths['/api/public/v1/stream'].get.parameters.find((p: Json) => p.name === 'cursor').schema.minimum = 1;
    expect(new Set(kinds(doc))).toEqual(
      new Set(['narrower environment', 'wider capabilities', 'wider environment', 'narrower cursor']),
    );
  });

  it('an enumeration with a value of its own (staging) is wider, through a reference and in a query too', () => {
    const doc = simulatorDoc();
    expect(kinds(doc)).toEqual([]);
    for (const o of objects(doc))
      if (Array.isArray(o.enum) && o.enum.includes('pilot')) o.enum = [...o.enum, 'staging'];
    const wider = judgeLimits(doc as OpenApiLike).findings.filter((f) => f.kind === 'wider');
    expect(wider.map((f) => `${f.field.route.method} ${f.field.name} ${JSON.stringify(f.case.value)}`)).toEqual([
      'POST environment "staging"',
      'POST environment "staging"',
    ]);
  });

  it('reads other header casing, referenced parameters and a cursor described as digits; ignores what is not described', () => {
    const doc = simulatorDoc();
    const post = doc.paths['/api/public/v1/connections'].post;
    const key = post.parameters.findIndex((p: Json) => p.name === 'Idempotency-Key');
    doc.components.parameters = { Key: { ...post.parameters[key], name: 'idempotency-key' } };
    post.parameters[key] = { $ref: '#/components/parameters/Key' };
    const cursor = doc.paths['/api/public/v1/stream'].get.parameters.find((p: Json) => p.name === 'cursor');
    cursor.schema = { type: 'string', pattern: '^[0-9]+$' };
    delete doc.components.schemas.CapabilityCheckRequest.properties.environment;
    const verdicts = judgeLimits(doc as OpenApiLike);
    expect(verdicts.findings).toEqual([]);
    expect(verdicts.judged).toContain('POST /api/public/v1/connections header Idempotency-Key');
    expect(verdicts.notJudged).toEqual(['POST /api/public/v1/capabilities body environment (not documented)']);
  });

  it('reads a key pattern written with escapes the u flag forbids', () => {
    const doc = simulatorDoc();
    for (const o of objects(doc))
      if (o.pattern === '^[A-Za-z0-9._:-]{8,128}$') o.pattern = '^[A-Za-z0-9.\\_\\:-]{8,128}$';
    const verdicts = judgeLimits(doc as OpenApiLike);
    expect(verdicts.notJudged).toEqual([]);
    expect(verdicts.findings).toEqual([]);
  });

  it("an identifier's own character pattern is noted, not failed", () => {
    const doc = simulatorDoc();
    doc.components.schemas.CapabilityCheckRequest.properties.connectorId.pattern = '^[0-9]+$';
    expect(kinds(doc)).toEqual(['characters connectorId', 'characters connectorId']);
  });
});

describe('documentedSuccess', () => {
  it('names a 201 in place of 200, accepts 200 and a 2XX range', () => {
    const doc = simulatorDoc();
    expect(documentedSuccess(doc as OpenApiLike).filter((d) => d.other.length)).toEqual([]);
    const post = doc.paths['/api/public/v1/connections'].post;
    const { 200: ok, ...rest } = post.responses;
    post.responses = { 201: ok, ...rest };
    doc.paths['/api/public/v1/idempotency-keys'].post.responses['2XX'] = ok;
    const other = documentedSuccess(doc as OpenApiLike).filter((d) => d.other.length);
    expect(other.map((d) => `${d.method} ${d.path} ${d.other}`)).toEqual(['POST /api/public/v1/connections 201']);
    expect(documentedSuccess(composedOpenApi(simulatorDoc()) as OpenApiLike).filter((d) => d.other.length)).toEqual([]);
  });
});
