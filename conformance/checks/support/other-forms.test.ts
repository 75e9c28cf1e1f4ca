import { describe, expect, it } from 'vitest';
import type { Exchange } from '../../client/http-client.ts';
import { type OtherForm, PATH_FORMS, sameAnswer } from './other-forms.ts';

const path = (name: string, p: string) => PATH_FORMS.find((f) => f.name.includes(name))?.path(p);
const ex = (status: number, data: unknown) => ({ status, json: { ok: true, data } }) as unknown as Exchange;
const form = (over: Partial<OtherForm>): OtherForm =>
  ({
    what: 'w',
    ref: ex(200, { count: 1 }),
    ex: ex(200, { count: 1 }),
    sameData: true,
    head: false,
    ...over,
  }) as OtherForm;

describe('the other forms of a route', () => {
  it("writes the path with a trailing slash and with its last segment's first character percent-encoded", () => {
    expect(path('slash', '/api/public/v1/providers')).toBe('/api/public/v1/providers/');
    expect(path('percent', '/api/public/v1/providers')).toBe('/api/public/v1/%70roviders');
    expect(path('percent', '/api/public/v1')).toBe('/api/public/%761');
    expect(path('percent', '/api/public/v1/audit-log')).toBe('/api/public/v1/%61udit-log');
  });

  it("holds a success to the route's data where the data stays, and HEAD to its status only", () => {
    expect(sameAnswer(form({}))).toBe(true);
    expect(sameAnswer(form({ ex: ex(200, { count: 0 }) }))).toBe(false);
    expect(sameAnswer(form({ ex: ex(200, { count: 0 }), sameData: false }))).toBe(true);
    expect(sameAnswer(form({ ex: ex(200, undefined), head: true }))).toBe(true);
  });
});

describe('a form answering its own path', () => {
  it("reads the path it names as the route's, and leaves what the route stamps per read alone", () => {
    const route = { method: 'GET', path: '/api/public/v1' } as OtherForm['route'];
    const self = (p: string, at: string) => ex(200, { links: { self: `http://h${p}` }, at });
    const f = form({
      route,
      path: '/api/public/v1/',
      ref: self('/api/public/v1', '1'),
      ex: self('/api/public/v1/', '1'),
    });
    expect(sameAnswer(f)).toBe(true);
    expect(sameAnswer({ ...f, ex: self('/api/public/v1/', '2') })).toBe(false);
    expect(sameAnswer({ ...f, ex: self('/api/public/v1/', '2'), perRead: ['$.at'] })).toBe(true);
  });
});

describe('the form path read as the route', () => {
  it('replaces whole occurrences only (the base with a slash starts every other path)', () => {
    const route = { method: 'GET', path: '/api/public/v1' } as OtherForm['route'];
    const body = (self: string) => ex(200, { self, routes: ['POST /api/public/v1/connections'] });
    const f = form({ route, path: '/api/public/v1/', ref: body('/api/public/v1'), ex: body('/api/public/v1/') });
    expect(sameAnswer(f)).toBe(true);
  });
});
