import { describe, expect, it } from 'vitest';
import { ROUTE_BY_ID } from '../../../simulator/contract/route-table.ts';
import { must } from '../../runner/invariant.ts';
import { emptiedList, listFieldOf } from './empty-list.ts';

const route = (id: string) => must(ROUTE_BY_ID.get(id), id);

describe('a list answer with its list emptied (a legal answer a run may never see)', () => {
  it('finds the list beside count in the contract: providers, connectors, capabilities, connections', () => {
    expect(
      ['listProviders', 'listConnectors', 'listCapabilities', 'listConnections'].map((id) => listFieldOf(route(id))),
    ).toEqual(['providers', 'connectors', 'capabilities', 'connections']);
    expect(listFieldOf(route('checkCapability'))).toBeUndefined();
    expect(listFieldOf(route('getAuditLog'))).toBeUndefined();
  });
  it('empties the list, sets count 0 and keeps every other field', () => {
    const answer = {
      ok: true,
      data: { tenant: 't', count: 1, connections: [{ id: 'c' }], next: null },
      meta: { v: 1 },
    };
    expect(emptiedList(route('listConnections'), answer)).toEqual({
      ok: true,
      data: { tenant: 't', count: 0, connections: [], next: null },
      meta: { v: 1 },
    });
    expect(emptiedList(route('listConnections'), { ok: true, data: { count: 1 } })).toBeUndefined();
  });
});
