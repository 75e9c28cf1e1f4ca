import { describe, expect, it } from 'vitest';
import { IDEMPOTENCY_KEY_PATTERN, LIMITS } from '../../simulator/contract/limits.ts';
import { classComplement } from './draw.ts';
import { COMPLEMENT_DRAWS, probesOf, type ValidCall } from './probes.ts';
import { operations } from './request-fields.ts';

const op = (id: string) => operations().find((o) => o.route.id === id)!;
let n = 0;
const valid = (): ValidCall => ({
  body: { connectorId: 'pos-1', environment: 'sandbox', scopeLabel: `label-${n++}`, capabilities: ['orders.read'] },
  query: {},
  headers: { 'Idempotency-Key': `key-0000-${n++}` },
});

describe('the operations and request values derived from the contract', () => {
  it('finds every request value of POST /connections with its limits, and the Idempotency-Key', () => {
    const fields = op('createConnection').fields;
    expect(fields.map((f) => `${f.in}:${f.name}`)).toEqual([
      'body:connectorId',
      'body:environment',
      'body:scopeLabel',
      'body:capabilities',
      'header:Idempotency-Key',
    ]);
    expect(fields.find((f) => f.name === 'scopeLabel')!.type).toEqual({
      type: 'string',
      min: LIMITS.scopeLabel.min,
      max: LIMITS.scopeLabel.max,
    });
    expect(fields.find((f) => f.name === 'Idempotency-Key')!.type).toMatchObject({ pattern: IDEMPOTENCY_KEY_PATTERN });
  });
  it('leaves out the endpoints the interface shows only as a sample call, and the OpenAPI download', () => {
    const ids = operations().map((o) => o.route.id);
    expect(ids).toEqual(
      expect.arrayContaining(['checkCapability', 'createConnection', 'createIdempotencyKey', 'streamStatus']),
    );
    expect(ids).not.toContain('createWebhook');
    expect(ids).not.toContain('getAuditLog');
    expect(ids).not.toContain('getOpenApiJson');
  });
});

describe('the probes of an operation', () => {
  const probes = (seed: number) => probesOf(op('createConnection'), seed, valid, 'ncs-conformance-abcd1234-');

  it('probes every field missing, null, mistyped, and each limit at the boundary and one past', () => {
    const ids = probes(1).map((p) => p.id);
    for (const f of ['connectorId', 'scopeLabel'])
      for (const k of ['missing', 'null', 'wrong-type', 'length-1', 'length-2', 'length-120', 'length-121'])
        expect(ids).toContain(`${f}.${k}`);
    expect(ids).toEqual(
      expect.arrayContaining(['capabilities.length-0', 'capabilities.length-24', 'capabilities.length-25']),
    );
    expect(ids).toEqual(
      expect.arrayContaining(['Idempotency-Key.length-7', 'Idempotency-Key.length-8', 'Idempotency-Key.length-128']),
    );
    expect(ids).toEqual(expect.arrayContaining(['unknown.restaurantId', 'environment.outside']));
    const missingKey = probes(1).find((p) => p.id === 'Idempotency-Key.missing')!;
    expect(missingKey.expect).toEqual({ accepted: false, code: 'idempotency_required' });
    expect(missingKey.headers['Idempotency-Key']).toBeUndefined();
  });

  it('accepts every environment in a capability check, one drawn per run in a creation', () => {
    const check = probesOf(op('checkCapability'), 1, valid, 'ncs-conformance-abcd1234-');
    const values = check.filter((p) => p.id.startsWith('environment.value-'));
    expect(values.map((p) => p.body?.environment).sort()).toEqual(['development', 'pilot', 'production', 'sandbox']);
    for (const p of values) expect(p.expect).toEqual({ accepted: true });
    expect(probes(1).filter((p) => p.id.startsWith('environment.value-'))).toHaveLength(1);
  });

  it('sends the valid body once as an HTML form: refused as invalid_request or accepted, never 415', () => {
    const form = probes(1).find((p) => p.id === 'body.form-encoded');
    expect(form?.expect).toEqual({ accepted: 'either', code: 'invalid_request' });
    expect(form?.headers['content-type']).toBe('application/x-www-form-urlencoded');
    expect(new URLSearchParams(form?.rawBody).get('connectorId')).toBe('pos-1');
  });

  it('sends the valid body inside a JSON array once: refused as invalid_request (no item read as the body)', () => {
    const wrapped = probes(1).find((p) => p.id === 'body.json-array');
    expect(wrapped?.expect).toEqual({ accepted: false, code: 'invalid_request' });
    expect(wrapped?.headers['content-type']).toBe('application/json');
    const sent = JSON.parse(wrapped?.rawBody ?? 'null') as unknown;
    expect(Array.isArray(sent) && (sent[0] as { connectorId?: string }).connectorId).toBe('pos-1');
  });

  it("refuses the sample's body shape (restaurantId in place of scopeLabel) and leaves extra fields to the deployment", () => {
    const byId = new Map(probes(1).map((p) => [p.id, p]));
    const sample = byId.get('sample.restaurantId');
    expect(sample?.expect).toEqual({ accepted: false, code: 'invalid_request' });
    expect(sample?.body).toHaveProperty('restaurantId');
    expect(sample?.body).not.toHaveProperty('scopeLabel');
    const extra = byId.get('unknown.restaurantId');
    expect(extra?.expect).toEqual({ accepted: 'either', code: 'invalid_request' });
    expect(extra?.body).toHaveProperty('scopeLabel');
  });
  it('sends each boundary at exactly its length: inside accepted, one past refused', () => {
    const byId = new Map(probes(1).map((p) => [p.id, p]));
    expect((byId.get('scopeLabel.length-120')!.body!.scopeLabel as string).length).toBe(120);
    expect(byId.get('scopeLabel.length-120')!.expect.accepted).toBe(true);
    expect((byId.get('scopeLabel.length-121')!.body!.scopeLabel as string).length).toBe(121);
    expect(byId.get('scopeLabel.length-121')!.expect.accepted).toBe(false);
    expect(byId.get('Idempotency-Key.length-128')!.headers['Idempotency-Key']).toMatch(IDEMPOTENCY_KEY_PATTERN);
  });
  it("draws the pattern's complement from the whole class, by the seed", () => {
    const complement = classComplement(IDEMPOTENCY_KEY_PATTERN);
    expect(complement).toHaveLength(95 - 66);
    const chars = (seed: number) =>
      probes(seed)
        .filter((p) => p.id.startsWith('Idempotency-Key.char-'))
        .map((p) => String.fromCharCode(Number(p.id.split('-').at(-1))));
    expect(chars(1)).toHaveLength(COMPLEMENT_DRAWS);
    for (const c of chars(1)) expect(complement).toContain(c);
    const seen = new Set([1, 2, 3, 4, 5, 6, 7, 8].flatMap(chars));
    expect(seen.size).toBeGreaterThan(COMPLEMENT_DRAWS * 2);
  });
  it('is the same for the same seed and differs for another', () => {
    const strip = (seed: number) =>
      probes(seed).map((p) => ({
        id: p.id,
        h: p.headers['Idempotency-Key']?.startsWith('key-') ? '' : p.headers['Idempotency-Key'],
        b: {
          ...p.body,
          // A fresh label per call, also inside the wrapped variants ([label], {value: label}).
          scopeLabel: /"label-/.test(JSON.stringify(p.body?.scopeLabel ?? '')) ? '' : p.body?.scopeLabel,
        },
      }));
    expect(strip(7)).toEqual(strip(7));
    expect(strip(7)).not.toEqual(strip(8));
  });
});
