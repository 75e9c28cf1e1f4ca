import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { LARGE_SCAN_CHARS, largeScansKept, scanText } from './channel-scan.ts';
import { INTERNAL_SIGNS } from './internal-details.ts';

const none = { secrets: [], error: false };

describe('scanning what the kit received for secrets and internals', () => {
  it('finds every known secret in any channel', () => {
    const secrets = [{ value: 'tok_abcdef123', what: 'the bearer token' }];
    expect(scanText('{"data":{"x":"tok_abcdef123"}}', { secrets, error: false })).toEqual(['the bearer token']);
  });
  it.each([
    ['at Object.handler (/srv/app/src/db.ts:42:7)', 'a JavaScript stack frame'],
    ['ERROR: duplicate key value violates unique constraint "connections_pkey"', 'an SQL error'],
    ['SQLSTATE[23505]', 'an SQL state'],
    ['HikariPool-1 - Connection is not available', 'a connection-pool name'],
    ['connect ECONNREFUSED 10.0.3.17:5432', 'the host:port of an internal service'],
    ['upstream ledger.svc.cluster.local:8443 timed out', 'the host:port of an internal service'],
    ['postgres://app:pw@db:5432/ncs', 'a data-store address'],
    ['org.hibernate.exception.ConstraintViolationException', 'a qualified exception class'],
  ])('finds %s in a success answer too', (text, what) => {
    expect(scanText(text, none).join()).toContain(what);
  });
  it("finds a data store's shard or row in error answers only (an entry's owner told in a hint)", () => {
    const text = 'Row exists in tenants table shard ncs-db-3 (owner != alpine-bistro).';
    expect(scanText(text, none)).toEqual([]);
    expect(scanText(text, { secrets: [], error: true }).join()).toContain("a data store's shard or row");
    expect(scanText('No connection with this id exists for the tenant.', { secrets: [], error: true })).toEqual([]);
  });
  it('finds loose signs (exception names, paths, SQL) in error answers only', () => {
    const text = 'IllegalStateException while reading /srv/app/handlers/create.py';
    expect(scanText(text, none)).toEqual([]);
    expect(scanText(text, { secrets: [], error: true }).length).toBe(2);
  });
  it('leaves legal data alone: venue names, versions, times, the addresses the kit itself uses', () => {
    for (const text of [
      '{"scopeLabel":"Harbour Kitchen at 10 Quay St","version":"2026-07-01","at":"2026-07-01T10:00:00.000Z"}',
      '{"summary":"Select items from the menu and update prices","reason":"capability offered"}',
      '{"url":"http://127.0.0.1:45123/ncs-conformance-ab12-receiver-3"}',
    ])
      expect(scanText(text, { secrets: [], error: false, legal: ['127.0.0.1:45123'] })).toEqual([]);
  });
  it("takes any port of the kit's receiver host as the kit's side (a closed receiver of an earlier run), not others", () => {
    const failed = '{"event":"webhook.delivery_failed","error":"connect ECONNREFUSED 127.0.0.1:39001"}';
    expect(scanText(failed, { secrets: [], error: false, legalHosts: ['127.0.0.1'] })).toEqual([]);
    expect(scanText(failed, { secrets: [], error: false, legalHosts: ['192.0.2.10'] }).join()).toContain('host:port');
    expect(
      scanText('ECONNREFUSED 10.0.3.17:5432', { secrets: [], error: false, legalHosts: ['127.0.0.1'] }),
    ).not.toEqual([]);
  });
});

describe("a sign's needed literals", () => {
  const PIECES = [
    'at ',
    'at',
    ' ',
    '\n',
    '  ',
    'async ',
    'handler',
    '(',
    ')',
    '/srv/app.ts',
    ':12',
    ':5',
    'node:internal/x',
  ];
  const more = [
    'Api.java',
    'org.',
    'acme.',
    'db.',
    'Conflict',
    'Exception',
    'Error',
    'postgres',
    'redis',
    '://',
    ':/',
    'u@h',
  ];
  // Whole matches too, so each sign matches often and a wrong literal shows.
  const whole = [
    'org.acme.Conflict',
    'at handler (/srv/app.ts:12:5)',
    '\n  at x(',
    'at a.B(Api.java:3)',
    'redis://u@h',
    'SQLSTATE',
    'SQL state',
    'ORA-12345',
    'ER_DUP_ENTRY',
    'SQLITE_BUSY',
    'goroutine 1 [',
    'panic: runtime error',
  ];
  const texts = fc.array(fc.constantFrom(...PIECES, ...more, ...whole), { maxLength: 14 }).map((p) => p.join(''));
  it('every match of a sign contains one of them, so texts without any are skipped with the same verdict', () => {
    const signs = INTERNAL_SIGNS.filter((s) => s.needs);
    expect(signs.length).toBeGreaterThan(0);
    fc.assert(
      fc.property(texts, (text) => {
        for (const s of signs)
          if (s.re.test(text))
            expect(
              (s.needs ?? []).some((n) => text.includes(n)),
              s.what,
            ).toBe(true);
      }),
      { numRuns: 3000, seed: 11 },
    );
  });
});

describe('the scans of large texts kept for the next run', () => {
  it('are bounded in characters as well as in count, and a text over a quarter of the budget is not kept', () => {
    const options = { secrets: [], error: false };
    for (let i = 0; i < 40; i++) scanText(`${String(i).padStart(4, '0')}${'x'.repeat(400_000)}`, options);
    const kept = largeScansKept();
    expect(kept.chars).toBeLessThanOrEqual(LARGE_SCAN_CHARS);
    expect(kept.count).toBeLessThan(16);
    const before = largeScansKept();
    scanText('y'.repeat(LARGE_SCAN_CHARS / 2), options);
    expect(largeScansKept()).toEqual(before);
    // The verdicts are the same, kept or not.
    const frame = 'at handler (/srv/app/db.ts:12:5)';
    expect(scanText(`${frame} ${'x'.repeat(LARGE_SCAN_CHARS / 2)}`, options)).toEqual(scanText(frame, options));
  });
});
