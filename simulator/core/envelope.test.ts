import { describe, expect, it } from 'vitest';
import { testContext } from '../middleware/test-context.ts';
import { ApiError } from './api-error.ts';
import { errorPayload, failure, replay, success, successPayload } from './envelope.ts';

describe('envelope', () => {
  it('keeps exactly the data JSON of a success answer, even when data mentions "meta"', () => {
    const data = { note: 'a ,"meta": inside a string', meta: { n: 1 } };
    const stored = successPayload(success(testContext(), data, 201));
    expect(stored).toEqual({ status: 201, ok: true, payload: JSON.stringify(data) });
  });

  it('reads the data of a body replaced after it was written from the new body', () => {
    const res = success(testContext(), { id: 'c1' });
    res.body = res.body!.replace('"c1"', '"c2"');
    expect(successPayload(res)?.payload).toBe('{"id":"c2"}');
  });

  it('keeps nothing of failures or non-envelope bodies', () => {
    expect(successPayload(failure(testContext(), new ApiError('not_found')))).toBeUndefined();
    expect(successPayload({ status: 200, headers: {}, body: 'plain' })).toBeUndefined();
  });

  it('replays a stored answer in a fresh envelope with meta.replayed and this request id', () => {
    const ctx = { ...testContext(), requestId: 'req_second', idempotencyKey: 'k1' };
    const res = replay(ctx, { status: 201, ok: true, payload: '{"id":"c1"}' });
    expect(res.status).toBe(201);
    expect(res.headers['x-request-id']).toBe('req_second');
    expect(JSON.parse(res.body!)).toEqual({
      ok: true,
      data: { id: 'c1' },
      meta: {
        requestId: 'req_second',
        version: ctx.version,
        at: '1970-01-01T00:00:00.000Z',
        idempotencyKey: 'k1',
        replayed: true,
      },
    });
  });

  it('replays a stored failure as the same failure envelope', () => {
    const err = new ApiError('not_found', { detail: 'No connector.' });
    const first = JSON.parse(failure(testContext(), err).body!);
    const again = JSON.parse(replay(testContext(), errorPayload(err)).body!);
    expect(again.error).toEqual(first.error);
    expect(again.ok).toBe(false);
    expect(again.meta.replayed).toBe(true);
  });
});
