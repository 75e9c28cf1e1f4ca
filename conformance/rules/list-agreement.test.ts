import { describe, expect, it } from 'vitest';
import { ROUTE_BY_ID } from '../../simulator/contract/route-table.ts';
import type { Exchange } from '../client/http-client.ts';
import { revealsSecret, SECRET_PIECE } from './leaks.ts';
import { listAgreementProblems, type Routed } from './list-agreement.ts';

const route = (id: string) => ROUTE_BY_ID.get(id)!;
const connection = {
  id: 'con_1',
  connectorId: 'tillcraft-pos-cloud',
  environment: 'pilot',
  scopeLabel: 'Harbour Kitchen',
  state: 'pending',
  capabilities: [
    { capability: 'orders.read', critical: false, idempotencyRequired: false },
    { capability: 'menu.read', critical: false, idempotencyRequired: false },
  ],
  nextStep: 'Wait.',
  createdAt: '2026-07-01T10:00:00.000Z',
};
const exchange = (tenant: string, data: unknown): Exchange => ({
  method: 'GET',
  url: 'http://x/api/public/v1/connections',
  requestHeaders: { 'X-Service-Tenant': tenant },
  status: 200,
  headers: {},
  text: '',
  json: { ok: true, data, meta: {} },
  durationMs: 1,
  attempts: 1,
});
const created: Routed = { ex: exchange('a', connection), route: route('createConnection') };
const listed = (tenant: string, entry: unknown): Routed => ({
  ex: exchange(tenant, { tenant, count: 1, connections: [entry] }),
  route: route('listConnections'),
});

describe('connection lists agree with their creations', () => {
  it('accepts a later state, another capability order, another offset and precision of the same instant', () => {
    const later = {
      ...connection,
      state: 'active',
      capabilities: [...connection.capabilities].reverse(),
      createdAt: '2026-07-01T12:00:00+02:00',
    };
    expect(listAgreementProblems([created, listed('a', later)])).toEqual([]);
  });
  it('finds an environment listed other than created, and a moved createdAt', () => {
    const [p] = listAgreementProblems([created, listed('a', { ...connection, environment: 'production' })]);
    expect(p?.problem).toMatch(/environment "production" \(created with "pilot"\)/);
    expect(
      listAgreementProblems([created, listed('a', { ...connection, createdAt: '2026-07-02T10:00:00Z' })])[0]?.problem,
    ).toMatch(/createdAt/);
  });
  it('finds a connection the kit never created under the label it gave one, unless the label was sent twice', () => {
    const label = 'ncs-conformance-r1-connection-7';
    const mine = { ...connection, scopeLabel: label, environment: 'production' };
    const post = (ex: Exchange): Exchange => ({
      ...ex,
      method: 'POST',
      requestBody: JSON.stringify({ scopeLabel: label }),
    });
    const made: Routed = { ex: post(exchange('a', mine)), route: route('createConnection') };
    const copy = { ...mine, id: 'con_1-sbx', environment: 'sandbox' };
    const [p] = listAgreementProblems([made, listed('a', copy)]);
    expect(p?.problem).toMatch(
      /lists con_1-sbx \(sandbox\), which the kit never created, with the scopeLabel of its connection con_1 \(production\)/,
    );
    expect(listAgreementProblems([made, listed('a', mine)])).toEqual([]);
    // Sent twice (a second creation whose answer was lost may have made the other id), or not a kit label.
    const lost: Routed = {
      ex: { ...post(exchange('a', undefined)), status: 0, json: undefined },
      route: route('createConnection'),
    };
    expect(listAgreementProblems([made, lost, listed('a', copy)])).toEqual([]);
    const sample = { ...made, ex: { ...made.ex, requestBody: JSON.stringify({ scopeLabel: 'Harbour Kitchen' }) } };
    expect(listAgreementProblems([sample, listed('a', { ...connection, id: 'con_2' })])).toEqual([]);
  });
  it('takes ids per collection: a receiver registered as "con_1" is not the connection listed as con_1', () => {
    const receiver: Routed = {
      ex: { ...exchange('a', { id: 'con_1', createdAt: '2026-07-02T00:00:00Z' }), method: 'POST' },
      route: route('createWebhook'),
    };
    expect(listAgreementProblems([receiver, listed('a', connection)])).toEqual([]);
  });
  it('finds a connection listed to another tenant, and ignores lists made before the creation', () => {
    expect(listAgreementProblems([created, listed('b', connection)])[0]?.problem).toMatch(
      /created for tenant a, to tenant b/,
    );
    expect(listAgreementProblems([listed('b', connection), created])).toEqual([]);
  });

  it("takes ids counted per tenant: the other tenant's own connection under the same id is no leak", () => {
    const theirs = { ...connection, scopeLabel: 'Meadow Bistro', connectorId: 'bookwell-reservations' };
    const own: Routed = { ex: exchange('b', theirs), route: route('createConnection') };
    expect(listAgreementProblems([created, own, listed('b', theirs)])).toEqual([]);
    // Listed before any creation of b (data from an earlier run), an entry that is not a's creation is none of a's.
    expect(listAgreementProblems([created, listed('b', theirs)])).toEqual([]);
    // The same id with a's fields listed to b: a's connection crossed tenants (b's own differs from it).
    expect(listAgreementProblems([created, listed('b', connection)])[0]?.problem).toMatch(/to tenant b/);
    expect(listAgreementProblems([created, own, listed('b', connection)])).toHaveLength(1);
  });
});

describe('revealsSecret', () => {
  const token = 'ncs_at_0123456789abcdefghijklmnopqrstuv';
  it('finds a secret whole or cut short, never a short common piece', () => {
    expect(revealsSecret(`hint: ${token}`, token)).toBe(true);
    expect(revealsSecret('Check the token ncs_at_0123456789abcdef…', token)).toBe(true);
    expect(revealsSecret('a token starts with ncs_at_ and 3 more', token)).toBe(false);
    expect(revealsSecret('ncs_at_0123', 'ncs_at_0123456789')).toBe(false);
  });

  it('finds every piece at every offset, and nothing one character short of a piece', () => {
    for (let at = 0; at + SECRET_PIECE <= token.length; at++) {
      const piece = token.slice(at, at + SECRET_PIECE);
      expect(revealsSecret(`x ${piece} y`, token), `piece at ${at}`).toBe(true);
      expect(revealsSecret(`x ${piece.slice(1)} y ${piece.slice(0, -1)}`, token), `short at ${at}`).toBe(false);
    }
  });
});
