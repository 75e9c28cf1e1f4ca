import { describe, expect, it } from 'vitest';
import { findChains } from './attempts.ts';
import { evaluateClientRules } from './report.ts';
import { call, observed, testToken } from './test-records.ts';

const chainsOf = (...calls: ReturnType<typeof call>[]) => findChains(observed(calls).bucket('app', 't1'));
const POST = { method: 'POST', path: '/api/public/v1/connections' };

describe('retry recognition', () => {
  it('links a call with the same key to the earlier one, whatever its outcome', () => {
    const [chain] = chainsOf(
      call({ ...POST, at: 0, key: 'k1', body: 'a', status: 500 }),
      call({ ...POST, at: 300, key: 'k1', body: 'a' }),
    );
    expect(chain?.links[0]).toMatchObject({ cause: 'internal', waitMs: 295, sameKey: true });
    const [after] = chainsOf(
      call({ ...POST, at: 0, key: 'k2', body: 'a' }),
      call({ ...POST, at: 50, key: 'k2', body: 'a' }),
    );
    expect(after?.links[0]?.cause).toBe('success');
  });
  it('links the same content under another key or none only after a retryable failure', () => {
    expect(
      chainsOf(
        call({ ...POST, at: 0, key: 'k1', body: 'a', status: 503 }),
        call({ ...POST, at: 10, key: 'k2', body: 'a' }),
      )[0]?.links[0],
    ).toMatchObject({ cause: 'transport', sameKey: false });
    // Two identical creates after a success are two operations; a GET after a 200 is polling.
    expect(
      chainsOf(call({ ...POST, at: 0, key: 'k1', body: 'a' }), call({ ...POST, at: 10, key: 'k2', body: 'a' })),
    ).toEqual([]);
    expect(chainsOf(call({ at: 0 }), call({ at: 1000 }))).toEqual([]);
    expect(chainsOf(call({ at: 0, status: 429 }), call({ at: 1000 }))[0]?.links[0]?.cause).toBe('rate_limited');
  });
  it('does not link calls under one key with other content: another operation under a reused key, not a retry', () => {
    const reused = [0, 1, 2].map((i) => call({ ...POST, at: i * 10, key: 'k', body: `v${i}`, status: i ? 409 : 200 }));
    expect(chainsOf(...reused)).toEqual([]);
    // An earlier call with the key and the same content is still what a later one retries.
    const failed = call({ ...POST, at: 0, key: 'k', body: 'a', status: 500 });
    const retry = call({ ...POST, at: 400, key: 'k', body: 'a' });
    const [chain] = chainsOf(failed, call({ ...POST, at: 100, key: 'k', body: 'b', status: 409 }), retry);
    expect(chain?.calls).toEqual([failed, retry]);
    expect(chain?.links[0]).toMatchObject({ cause: 'internal', waitMs: 395 });
  });
  it('ignores a key sent along on a route that requires none (a session key on every read): content decides', () => {
    const polls = [0, 1, 2].map((i) => call({ at: i * 300, key: 'session-key-1' }));
    expect(chainsOf(...polls)).toEqual([]);
    const [chain] = chainsOf(
      call({ at: 0, key: 'session-key-1', status: 500 }),
      call({ at: 300, key: 'session-key-1' }),
    );
    expect(chain?.links[0]).toMatchObject({ cause: 'internal', sameKey: false });
  });
  it('takes a call opening a connection accepted before the earlier answer left as sent beside it, not a repeat', () => {
    // Both sent at once: the first answered (403) before the second, on its own new connection, was read.
    const first = call({ at: 0, status: 403, connection: 1, connectionsAtAnswer: 2 });
    expect(chainsOf(first, call({ at: 6, status: 403, connection: 2 }))).toEqual([]);
    // A connection accepted after the answer left (a retry on a new connection) is a repeat.
    expect(chainsOf(first, call({ at: 6, status: 403, connection: 3 }))[0]?.links[0]?.cause).toBe('client_error');
    // A later call on a kept-alive connection (not its first call) is a repeat.
    expect(chainsOf(first, call({ at: 6, status: 403 }))[0]?.links[0]?.cause).toBe('client_error');
  });
  it('takes a body relabelled after a 400 that refused its label as a new call, not after a 400 about its content', () => {
    const POST_JSON = { method: 'POST', path: '/api/public/v1/capabilities', body: '{"a":1}' } as const;
    const plain = call({ ...POST_JSON, at: 0, status: 400, contentType: 'text/plain' });
    expect(chainsOf(plain, call({ ...POST_JSON, at: 500, contentType: 'application/json' }))).toEqual([]);
    const content = call({ ...POST_JSON, at: 0, status: 400, contentType: 'application/json' });
    const relabelled = call({ ...POST_JSON, at: 500, contentType: 'application/json; charset=utf-8' });
    expect(chainsOf(content, relabelled)[0]?.links[0]?.cause).toBe('client_error');
  });
  it('takes the same content under a key in the pattern after a 400 to a key outside it as a new call, not another key after a 400 about the content', () => {
    const short = call({ ...POST, at: 0, key: 'k-7char', body: 'a', status: 400 });
    expect(chainsOf(short, call({ ...POST, at: 500, key: 'k-7char-pad', body: 'a' }))).toEqual([]);
    // The same short key again, or a key fixed into another key outside the pattern: the 400 repeated.
    expect(chainsOf(short, call({ ...POST, at: 500, key: 'k-7char', body: 'a' }))[0]?.links[0]?.cause).toBe(
      'client_error',
    );
    expect(chainsOf(short, call({ ...POST, at: 500, key: 'k 7 char!', body: 'a' }))[0]?.links[0]?.cause).toBe(
      'client_error',
    );
    // A key in the pattern refused 400 (the content was wrong), sent again under a new key: still a repeat.
    const content = call({ ...POST, at: 0, key: 'valid-key-1', body: 'a', status: 400 });
    expect(chainsOf(content, call({ ...POST, at: 500, key: 'valid-key-2', body: 'a' }))[0]?.links[0]?.cause).toBe(
      'client_error',
    );
  });
  it('takes a call on a connection a pool opened ahead of need, sent well after the answer, as a repeat', () => {
    // Accepted before the first call's answer but idle until 50 ms after it: the client had that answer.
    const refused = call({ at: 0, status: 429, connection: 1, connectionsAtAnswer: 2 });
    const warm = call({ at: 60, status: 429, connection: 2, connectionIdleMs: 70 });
    expect(chainsOf(refused, warm)[0]?.links[0]?.cause).toBe('rate_limited');
    // Idle as long, but sent within the race of the answer: still beside it.
    expect(chainsOf(refused, call({ at: 20, status: 429, connection: 2, connectionIdleMs: 70 }))).toEqual([]);
    // Sent late on a connection written at once (no idle): a call sent beside it, read late.
    expect(chainsOf(refused, call({ at: 60, status: 429, connection: 2, connectionIdleMs: 1 }))).toEqual([]);
  });
  it('counts a call that came before the earlier one was answered as unanswered (a client timeout), in arrival order', () => {
    const retry = call({ at: 800, ...POST, key: 'k', body: 'a' });
    const held = call({ at: 0, ms: 1500, ...POST, key: 'k', body: 'a', status: 0 });
    const [chain] = chainsOf(retry, held);
    expect(chain?.calls.map((c) => c.requestId)).toEqual([held.requestId, retry.requestId]);
    expect(chain?.links[0]).toMatchObject({ cause: 'unanswered', waitMs: undefined });
  });
  it('does not link a 401 followed by a call with a new token, nor calls beyond the window', () => {
    expect(
      chainsOf(
        call({ ...POST, at: 0, key: 'k', body: 'a', status: 401 }),
        call({ ...POST, at: 10, key: 'k', body: 'a', token: testToken(5) }),
      ),
    ).toEqual([]);
    expect(chainsOf(call({ at: 0, status: 500 }), call({ at: 200_000 }))).toEqual([]);
  });
  it('links an unchanged repeat after a 4xx, but not the remedy the error names', () => {
    const GET = { path: '/api/public/v1/connections' };
    expect(chainsOf(call({ ...GET, at: 0, status: 403 }), call({ ...GET, at: 200 }))[0]?.links[0]?.cause).toBe(
      'client_error',
    );
    // A new token after a 401, a new key after idempotency_required: new calls.
    const other = testToken(100);
    expect(chainsOf(call({ ...GET, at: 0, status: 401 }), call({ ...GET, at: 200, token: other }))).toEqual([]);
    expect(
      chainsOf(
        call({ ...POST, at: 0, body: 'a', status: 428, code: 'idempotency_required' }),
        call({ ...POST, at: 200, body: 'a', key: 'k1' }),
      ),
    ).toEqual([]);
  });
  it('takes another Service-Version after a 400 that refused an unpublished one as the remedy, with or without a key', () => {
    const GET = { path: '/api/public/v1/connections' };
    const refused = { status: 400, code: 'invalid_request', version: '2026-09-01' };
    expect(chainsOf(call({ ...GET, at: 0, ...refused }), call({ ...GET, at: 200 }))).toEqual([]);
    expect(
      chainsOf(
        call({ ...POST, at: 0, body: 'a', key: 'k1', ...refused }),
        call({ ...POST, at: 200, body: 'a', key: 'k1' }),
      ),
    ).toEqual([]);
    // The same unpublished version again, or another version after a 400 that was not about it: a repeat.
    expect(
      chainsOf(call({ ...GET, at: 0, ...refused }), call({ ...GET, at: 200, version: '2026-09-01' })),
    ).toHaveLength(1);
    const bodyRefused = { status: 400, code: 'invalid_request', version: '2026-07-01' };
    const [chain] = chainsOf(
      call({ ...POST, at: 0, body: 'a', key: 'k2', ...bodyRefused }),
      call({ ...POST, at: 200, body: 'a', key: 'k2', version: '2026-06-12' }),
    );
    expect(chain?.links[0]?.cause).toBe('client_error');
  });
  it('keeps concurrent operations with equal content apart: one retry per attempt, a key that goes on', () => {
    const GET = { path: '/api/public/v1/connectors' };
    // A1, B1 sent at once fail; A2, B2 each repeat one of them: two chains of two, not one of four.
    const chains = chainsOf(
      call({ ...GET, at: 0, status: 500, ms: 20, watched: true }),
      call({ ...GET, at: 10, status: 500, watched: true }),
      call({ ...GET, at: 300 }),
      call({ ...GET, at: 320 }),
    );
    expect(chains.map((c) => c.calls.length)).toEqual([2, 2]);
    // B1 (key b) after A1 (key a) failed: A's key comes again, so B1 is another operation.
    const keyed = chainsOf(
      call({ ...POST, at: 0, key: 'a', body: 'x', status: 500 }),
      call({ ...POST, at: 10, key: 'b', body: 'x', status: 500 }),
      call({ ...POST, at: 300, key: 'a', body: 'x' }),
      call({ ...POST, at: 310, key: 'b', body: 'x' }),
    );
    expect(keyed.map((c) => c.links.map((l) => l.sameKey))).toEqual([[true], [true]]);
    // A copy without a key is no operation of its own (the service refuses it): A1's retry without its
    // key, even though A's key comes again.
    const keyless = chainsOf(
      call({ ...POST, at: 0, key: 'a', body: 'x', status: 500 }),
      call({ ...POST, at: 250, body: 'x', status: 428, code: 'idempotency_required' }),
      call({ ...POST, at: 600, key: 'a', body: 'x' }),
    );
    expect(keyless[0]?.links.map((l) => [l.next.key ?? 'none', l.sameKey])).toEqual([
      ['none', false],
      ['a', true],
    ]);
  });
  it('takes a create sent under another key while the first was awaited, one of them then abandoned, as a hedge', () => {
    const slow = { ...POST, body: 'a', watched: true, ms: 600 };
    // The hedge under k2 150 ms in; the client takes the first answer and gives up on the hedge.
    const [hedge] = chainsOf(call({ ...slow, at: 0, key: 'k1' }), call({ ...slow, at: 150, key: 'k2', goneAt: 601 }));
    expect(hedge?.links[0]).toMatchObject({ cause: 'unanswered', sameKey: false });
    // Twins sent at once and both awaited, or one given up and carried on under its own key: two operations.
    expect(chainsOf(call({ ...slow, at: 0, key: 'k1' }), call({ ...slow, at: 1, key: 'k2' }))).toEqual([]);
    const twins = chainsOf(
      call({ ...slow, at: 0, key: 'k1', goneAt: 300 }),
      call({ ...slow, at: 1, key: 'k2' }),
      call({ ...POST, body: 'a', at: 700, key: 'k1' }),
    );
    expect(twins.flatMap((ch) => ch.links.map((l) => [l.prev.key, l.next.key]))).toEqual([['k1', 'k1']]);
  });
  it('tells a client that gave up (then retried) from a parallel call it still awaits', () => {
    const slow = { ...POST, at: 0, body: 'a', key: 'k1', ms: 900, watched: true };
    const gaveUp = chainsOf(call({ ...slow, goneAt: 300 }), call({ ...POST, at: 500, body: 'a', key: 'k2' }));
    expect(gaveUp[0]?.links[0]).toMatchObject({ cause: 'transport', waitMs: 200, sameKey: false });
    expect(chainsOf(call(slow), call({ ...POST, at: 20, body: 'a', key: 'k2', watched: true }))).toEqual([]);
    // The same key while the first is still open: a timeout raced against a request left open.
    const raced = chainsOf(call(slow), call({ ...POST, at: 400, body: 'a', key: 'k1', watched: true }));
    expect(raced[0]?.links[0]).toMatchObject({ cause: 'unanswered', sameKey: true });
  });
  it('marks a read polled at its cadence through failures as polling, a retry at another pace not', () => {
    const GET = { path: '/api/public/v1/connections' };
    const polls = [0, 200, 400, 600].map((at, i) => call({ ...GET, at, status: i === 0 ? 200 : 500 }));
    const [poll] = chainsOf(...polls, call({ ...GET, at: 800 }));
    expect(poll?.polling).toBe(true);
    const [retry] = chainsOf(
      call({ ...GET, at: 0 }),
      call({ ...GET, at: 5_000, status: 500 }),
      call({ ...GET, at: 5_100 }),
    );
    expect(retry?.polling).toBe(false);
  });
  it('marks a capability check (a POST that changes nothing) polled at its cadence through failures as polling', () => {
    const CHECK = { method: 'POST', path: '/api/public/v1/capabilities', body: '{"capability":"orders.read"}' };
    const checks = [0, 2_000, 4_000, 6_000, 8_000, 10_000].map((at, i) =>
      call({ ...CHECK, modifying: false, at, status: i < 2 ? 200 : i < 5 ? 500 : 200 }),
    );
    const [poll] = chainsOf(...checks);
    expect(poll?.calls).toHaveLength(4);
    expect(poll?.polling).toBe(true);
    // A create (its route requires a key) repeated at the same pace is a retry sequence, never polling.
    const creates = [0, 2_000, 4_000, 6_000].map((at, i) =>
      call({ ...POST, at, body: 'a', key: 'k1', status: i < 2 ? 200 : 500 }),
    );
    expect(chainsOf(...creates).every((c) => !c.polling)).toBe(true);
  });
  it('marks creates of the same content at their cadence, each under a key of its own, as a series, not a retry', () => {
    // A k6-style load script: the same connection created every second, a new key per iteration; the
    // iteration after a 429 is the next operation, not a retry under a new key.
    const series = [0, 1_000, 2_000, 3_000, 4_000].map((at, i) =>
      call({ ...POST, at, body: 'a', key: `iteration-${i}`, status: i === 3 ? 429 : 200 }),
    );
    const [next] = chainsOf(...series);
    expect(next?.links[0]?.cause).toBe('rate_limited');
    expect(next?.polling).toBe(true);
    const report = evaluateClientRules(observed(series), []);
    expect(report.rules.find((r) => r.id === 'retry.same-key-and-content')?.status).toBe('not-observed');
    // Off the cadence (at once after the 429), or without a key, it is the retry it looks like.
    const hurried = series.map((c, i) => (i === 4 ? { ...c, at: 3_100, answeredAt: 3_105 } : c));
    expect(chainsOf(...hurried)[0]?.polling).toBe(false);
    const keyless = series.map((c, i) => (i === 4 ? { ...c, key: undefined } : c));
    expect(chainsOf(...keyless)[0]?.polling).toBe(false);
  });
});
