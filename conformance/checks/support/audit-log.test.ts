import { describe, expect, it } from 'vitest';
import type { Exchange } from '../../client/http-client.ts';
import { nextPage, numberingOf } from './audit-log.ts';

const answer = (data: unknown, headers: Record<string, string> = {}): Exchange => ({
  method: 'GET',
  url: 'https://api.example/api/public/v1/audit-log?limit=50',
  requestHeaders: {},
  status: 200,
  headers,
  text: '',
  json: { ok: true, data },
  durationMs: 1,
  attempts: 1,
});

describe('audit-log paging and order, discovered', () => {
  it('follows a Link rel=next, a next path, or sends a cursor back under its own name', () => {
    expect(nextPage(answer({ log: [] }, { link: '</api/public/v1/audit-log?page=2>; rel="next"' }))).toBe(
      '/api/public/v1/audit-log?page=2',
    );
    expect(nextPage(answer({ log: [], next: '/api/public/v1/audit-log?limit=50&after=9' }))).toBe(
      '/api/public/v1/audit-log?limit=50&after=9',
    );
    expect(nextPage(answer({ log: [], paging: { nextCursor: 'abc' } }))).toBe(
      '/api/public/v1/audit-log?limit=50&cursor=abc',
    );
    expect(nextPage(answer({ log: [], next: 'opaque' }))).toBe('/api/public/v1/audit-log?limit=50&cursor=opaque');
    expect(nextPage(answer({ log: [], nextPage: 3 }))).toBe('/api/public/v1/audit-log?limit=50&page=3');
    expect(nextPage(answer({ log: [], next: null }))).toBeUndefined();
    expect(nextPage(answer({ entries: [] }))).toBeUndefined();
  });

  it('reads the direction of a sequence field', () => {
    expect(numberingOf([{ seq: 3 }, { seq: 2 }, { seq: 1 }])).toEqual({
      field: 'seq',
      direction: 'down',
      sequenceName: true,
    });
    expect(numberingOf([{ n: 1 }, { n: 2 }])).toEqual({ field: 'n', direction: 'up', sequenceName: true });
    expect(numberingOf([{ seq: 2 }, { seq: 3 }, { seq: 1 }])?.direction).toBe('none');
    expect(numberingOf([{ what: 'x' }, { what: 'y' }])).toBeUndefined();
  });
});
