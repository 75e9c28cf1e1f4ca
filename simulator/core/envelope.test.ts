import { describe, expect, it } from 'vitest';
import { testContext } from '../test-support/test-context.ts';
import { ApiError } from './api-error.ts';
import { errorValue, failure, writeReply } from './envelope.ts';
import { ok, okJson, raw } from './reply.ts';

describe('envelope', () => {
  it('writes a data value into the success envelope with this request meta', () => {
    const ctx = { ...testContext(), requestId: 'req_second', idempotencyKey: 'k1' };
    const res = writeReply(ctx, ok({ id: 'c1', note: 'a ,"meta": inside a string' }, 201));
    expect(res.status).toBe(201);
    expect(res.headers['x-request-id']).toBe('req_second');
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(JSON.parse(res.body ?? '')).toEqual({
      ok: true,
      data: { id: 'c1', note: 'a ,"meta": inside a string' },
      meta: { requestId: 'req_second', version: ctx.version, at: '1970-01-01T00:00:00.000Z', idempotencyKey: 'k1' },
    });
  });

  it('marks a replay in meta, the data the same value', () => {
    const ctx = { ...testContext(), replayed: true };
    const res = writeReply(ctx, ok({ id: 'c1' }));
    expect(JSON.parse(res.body ?? '')).toMatchObject({ data: { id: 'c1' }, meta: { replayed: true } });
  });

  it('uses JSON text cached with the value instead of serialising again', () => {
    const res = writeReply(testContext(), okJson({ n: 1 }, '{"n":1}'));
    expect(res.body).toMatch(/^\{"ok":true,"data":\{"n":1\},"meta":/);
  });

  it('passes raw answers through unchanged', () => {
    const answer = { status: 303, headers: { location: '/' } };
    expect(writeReply(testContext(), raw(answer))).toBe(answer);
  });

  it('writes the failure envelope from the error value, headers included', () => {
    const err = new ApiError('not_found', { detail: 'No connector.', headers: { allow: 'GET' } });
    const res = failure(testContext(), err);
    expect(res.status).toBe(404);
    expect(res.headers.allow).toBe('GET');
    const body = JSON.parse(res.body ?? '');
    expect(body.error).toEqual(errorValue(err));
    expect(Object.keys(body.error)).toEqual(['code', 'message', 'detail', 'hint']);
  });
});
