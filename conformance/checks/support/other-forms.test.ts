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
