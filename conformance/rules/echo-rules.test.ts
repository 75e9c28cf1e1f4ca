import { describe, expect, it } from 'vitest';
import { ROUTE_BY_ID } from '../../simulator/contract/route-table.ts';
import { dataProblems } from './contract-shapes.ts';
import { echoPairs, echoProblems } from './echo-rules.ts';

const route = (id: string) => ROUTE_BY_ID.get(id)!;

describe('echo rules derived from the contract', () => {
  it('pairs every request field with where the answer repeats it', () => {
    expect(echoPairs(route('createConnection')).map((p) => p.path.join('.'))).toEqual([
      'connectorId',
      'environment',
      'scopeLabel',
      'capabilities',
    ]);
    expect(echoPairs(route('checkCapability')).map((p) => p.path.join('.'))).toEqual([
      'decision.connectorId',
      'decision.capability',
      'environment',
    ]);
    expect(echoPairs(route('createIdempotencyKey')).map((p) => p.field)).toEqual(['operation']);
  });
  it('finds an environment not repeated, and the default sandbox when it was left out', () => {
    const pairs = echoPairs(route('checkCapability'));
    const data = { decision: { connectorId: 'a', capability: 'b' }, environment: 'sandbox' };
    expect(echoProblems(pairs, { connectorId: 'a', capability: 'b' }, data)).toEqual([]);
    expect(echoProblems(pairs, { connectorId: 'a', capability: 'b', environment: 'pilot' }, data)).toHaveLength(1);
  });
  it('compares a list of capabilities with the objects the Connection lists, in any order', () => {
    const pairs = echoPairs(route('createConnection'));
    const sent = { capabilities: ['x.read', 'y.write'] };
    expect(echoProblems(pairs, sent, { capabilities: [{ capability: 'y.write' }, { capability: 'x.read' }] })).toEqual(
      [],
    );
    expect(echoProblems(pairs, sent, { capabilities: [{ capability: 'x.read' }] })).toHaveLength(1);
  });
});

describe("a 200 answer's data against the contract", () => {
  const connection = {
    id: 'c1',
    connectorId: 'pos',
    environment: 'sandbox',
    scopeLabel: 'Harbour',
    state: 'pending',
    capabilities: [{ capability: 'orders.read', critical: true, idempotencyRequired: false }],
    nextStep: 'wait',
    createdAt: '2026-07-01T10:00:00+02:00',
    vendorField: 1,
  };
  it('accepts further fields and any RFC 3339 offset (legal choices)', () => {
    expect(dataProblems(route('createConnection'), connection)).toBeUndefined();
  });
  it('finds a field left out, retyped or out of range', () => {
    const { state: _s, ...withoutState } = connection;
    expect(dataProblems(route('createConnection'), withoutState)).toMatch(/state/);
    expect(dataProblems(route('createConnection'), { ...connection, createdAt: 'yesterday' })).toMatch(/date-time/);
    expect(dataProblems(route('createConnection'), { ...connection, environment: 'prod' })).toMatch(/allowed values/);
    expect(
      dataProblems(route('createIdempotencyKey'), {
        idempotencyKey: 'has space',
        operation: 'x',
        expiresAt: '2026-07-01T10:00:00Z',
      }),
    ).toMatch(/pattern/);
  });
});
