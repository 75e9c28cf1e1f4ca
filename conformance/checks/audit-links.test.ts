import { describe, expect, it } from 'vitest';
import { brokenLinks, chainFields, numberGaps, whyNoChain } from './audit-links.ts';
import { namesId, positionsOf } from './support/audit-log.ts';

const chain = (n: number, from = 1) =>
  Array.from({ length: n }, (_, i) => ({
    seq: from + i,
    hash: `h${from + i}`,
    prevHash: `h${from + i - 1}`,
  })).reverse();

describe('audit entries followed as a hash chain, whatever the hash format', () => {
  it('finds the link on the later entries where the first one leaves it out (an omitted null, oldest first)', () => {
    const oldestFirst = [
      { seq: 1, rowHash: 'h1' },
      ...chain(3, 2)
        .reverse()
        .map(({ seq, hash, prevHash }) => ({ seq, rowHash: hash, prevRowHash: prevHash })),
    ];
    expect(chainFields(oldestFirst)).toEqual({ hash: 'rowHash', prev: 'prevRowHash' });
    expect(brokenLinks(oldestFirst)).toEqual({ judged: 3, broken: [] });
  });
  it('follows consecutive numbers in either order and names a broken link', () => {
    expect(brokenLinks(chain(5))).toEqual({ judged: 4, broken: [] });
    const entries = chain(5);
    entries[1] = { ...entries[1], prevHash: 'elsewhere' } as (typeof entries)[number];
    const { broken } = brokenLinks(entries);
    expect(broken).toHaveLength(1);
    expect(broken[0]).toMatch(/^seq 4: prevHash elsewhere…, the hash of seq 3 is h3…$/);
  });

  it('follows a chain numbered by digit strings (proto3 JSON, a bigint id)', () => {
    const entries = chain(3).map((e) => ({ ...e, seq: String(e.seq) }));
    expect(brokenLinks(entries)).toEqual({ judged: 2, broken: [] });
    entries[0] = { ...(entries[0] as (typeof entries)[number]), prevHash: 'elsewhere' };
    expect(brokenLinks(entries).broken[0]).toMatch(/^seq 3: prevHash elsewhere…/);
  });

  it('compares only consecutive numbers: a log numbered across tenants has gaps, not broken links', () => {
    const gaps = [
      { seq: 9, hash: 'h9', prevHash: 'h8' },
      { seq: 5, hash: 'h5', prevHash: 'h4' },
      { seq: 4, hash: 'h4', prevHash: 'h3' },
    ];
    expect(brokenLinks(gaps)).toEqual({ judged: 1, broken: [] });
  });

  it('reads other names (digest, prev) and none where the entries carry no chain', () => {
    expect(chainFields([{ id: 1, digest: 'a', prev: '0' }])).toEqual({ hash: 'digest', prev: 'prev' });
    // The link named after its hash word is preferred, whatever else is named like a link.
    expect(chainFields([{ sequence: 1, digest: 'a', previousDigest: '0', parentRequest: 'r' }])).toEqual({
      hash: 'digest',
      prev: 'previousDigest',
    });
    expect(chainFields([{ seq: 1, entry_checksum: 'a', preceding_checksum: '0' }])).toEqual({
      hash: 'entry_checksum',
      prev: 'preceding_checksum',
    });
    // A word for the entry between (a table's rows: rowMac and previousRowMac, pawpaw's keyed chain).
    expect(chainFields([{ seq: 1, rowMac: 'a', previousRowMac: '0' }])).toEqual({
      hash: 'rowMac',
      prev: 'previousRowMac',
    });
    expect(whyNoChain([{ seq: 1, digest: 'a' }])).toMatch(/own hash \(digest\) but no link/);
    expect(whyNoChain([{ seq: 1, leafHash: 'a', inclusionProof: [] }])).toMatch(
      /own hash \(leafHash\) but no link.*Merkle/,
    );
    expect(chainFields([{ seq: 1, action: 'x' }])).toBeUndefined();
    expect(
      brokenLinks([
        { seq: 1, action: 'x' },
        { seq: 2, action: 'y' },
      ]).judged,
    ).toBe(0);
  });

  it("finds a change's id as a whole, not inside a number or a timestamp (numeric ids)", () => {
    expect(namesId('{"target":"connections/76","seq":3}', '76')).toBe(true);
    expect(namesId('{"id":"76"}', '76')).toBe(true);
    expect(namesId('{"seq":176,"at":"2026-11-27T04:51:09.76Z","id":"760"}', '76')).toBe(false);
    expect(namesId('{"target":"ncs-conformance-ab-audit-1"}', 'ncs-conformance-ab-audit-1')).toBe(true);
    // Ids counted per tenant: a number under an id's name names it, any other number does not (olive).
    expect(namesId('{"seq":5,"attempt":5}', '5')).toBe(false);
    expect(namesId('{"id":5,"resource_id":"12"}', '5')).toBe(false);
    expect(namesId('{"id":5,"resource_id":"12"}', '12')).toBe(true);
    expect(namesId('{"seq":9,"resourceId":5}', '5')).toBe(true);
    expect(namesId('{"seq":9,"target":"connection:5"}', '5')).toBe(true);
  });

  it('places a change by the entries naming it, not by an entry whose own id shares its number (mangrove)', () => {
    // Oldest first, ids counted per table: entry "41" (another change) comes before connection 41's creation.
    const log = [
      { id: '40', position: 1, resource_id: '7' },
      { id: '41', position: 2, resource_id: '40' },
      { id: '42', position: 3, resource_id: '41' },
    ];
    expect(positionsOf(log, '40')).toEqual([1]);
    expect(positionsOf(log, '41')).toEqual([2]);
    // A log whose entry is the change itself (named by its top-level id alone) is still found.
    expect(positionsOf([{ id: '9', action: 'connection.created' }], '9')).toEqual([0]);
  });

  it('places a numeric id by the entries naming its kind where another table shares the number', () => {
    const log = [
      { id: '1', action: 'connection.created', resource_type: 'connection', resource_id: '41' },
      { id: '2', action: 'webhook.created', resource_type: 'webhook', resource_id: '41' },
    ];
    expect(positionsOf(log, '41')).toEqual([0, 1]);
    expect(positionsOf(log, '41', 'connection')).toEqual([0]);
    // A receiver's registration listing the event connection.created is not of the kind.
    const hooks = [
      { id: '1', target: 'connections/41' },
      { id: '2', target: 'webhooks/41', events: ['connection.created'] },
      { id: '3', connection_id: '41' },
    ];
    expect(positionsOf(hooks, '41', 'connection')).toEqual([0, 2]);
    // No entry names the kind: every entry naming the number counts, as without it.
    expect(positionsOf([{ id: '3', target: '41' }], '41', 'connection')).toEqual([0]);
  });
});

describe('numberGaps', () => {
  const seq = (e: Record<string, unknown>) => Number(e.seq);
  it("tells a tenant's entries of a chain shared with others (numbers that skip) from a chain of its own", () => {
    expect(numberGaps(chain(5), seq)).toBe(false);
    // Entries 3 and 6 are another tenant's in one service-wide chain: the head may name one this tenant is not shown.
    expect(numberGaps([...chain(2), ...chain(2, 4), ...chain(1, 7)], seq)).toBe(true);
  });
});
