import { describe, expect, it } from 'vitest';
import { evaluateClientRules } from './report.ts';
import { call, observed, stream, testToken } from './test-records.ts';

const statusOf = (obs: ReturnType<typeof observed>, id: string) =>
  evaluateClientRules(obs, []).rules.find((r) => r.id === id)!;

/** A GET failing with 500 n times, retried after the given waits (ms), starting at `at`. */
function sequence(at: number, waits: number[], path = '/api/public/v1/providers') {
  const calls = [call({ at, path, status: 500 })];
  for (const [i, w] of waits.entries())
    calls.push(call({ at: calls.at(-1)!.answeredAt + w, path, status: i === waits.length - 1 ? 200 : 500 }));
  return calls;
}

describe('client rules', () => {
  it('says not-observed for every rule before anything happened', () => {
    const report = evaluateClientRules(observed([]), []);
    expect(report.rules.map((r) => r.status)).toEqual(report.rules.map(() => 'not-observed'));
    expect(report.exitCode).toBe(0);
  });
  it('retry.respects-retry-after: the wait after a 429 is at least Retry-After, less 3 ms of timer slack', () => {
    const limited = (wait: number) =>
      observed([call({ at: 0, status: 429, retryAfterMs: 1000 }), call({ at: 5 + wait })]);
    expect(statusOf(limited(998), 'retry.respects-retry-after').status).toBe('pass');
    // A few ms short: measured from the answer leaving, a client that slept the whole wait never reads shorter.
    expect(statusOf(limited(990), 'retry.respects-retry-after').status).toBe('fail');
    const bad = statusOf(limited(400), 'retry.respects-retry-after');
    expect(bad.status).toBe('fail');
    expect(bad.evidence[0]).toMatchObject({
      waitsMs: [400],
      requestIds: ['req_1', 'req_2'].map(() => expect.any(String)),
    });
  });
  it('retry.respects-retry-after: a stream refused 429 owes its Retry-After to the stream opened next', () => {
    const STREAM = '/api/public/v1/stream';
    const reopened = (wait: number, beside = false) =>
      observed(
        [call({ at: 0, path: STREAM, status: 429, retryAfterMs: 5000 })],
        [...(beside ? [stream({ at: -1000 })] : []), stream({ at: 5 + wait })],
      );
    expect(statusOf(reopened(100), 'retry.respects-retry-after').status).toBe('fail');
    expect(statusOf(reopened(5100), 'retry.respects-retry-after').status).toBe('pass');
    // A second consumer's stream, open beside it, is not the refused one's reconnect.
    expect(statusOf(reopened(100, true), 'retry.respects-retry-after').status).toBe('not-observed');
  });
  it('retry.growing-waits: judges pairs of backoff waits, not waits the server set', () => {
    expect(statusOf(observed(sequence(0, [300, 600])), 'retry.growing-waits').status).toBe('pass');
    expect(statusOf(observed(sequence(0, [300, 300])), 'retry.growing-waits').status).toBe('fail');
    expect(statusOf(observed(sequence(0, [300])), 'retry.growing-waits').status).toBe('not-observed');
    expect(statusOf(observed(sequence(0, [0, 0])), 'retry.growing-waits').status).toBe('fail');
    const floored = [
      call({ at: 0, status: 429, retryAfterMs: 1000 }),
      call({ at: 1005, status: 500 }),
      call({ at: 1310 }),
    ];
    expect(statusOf(observed(floored), 'retry.growing-waits').status).toBe('not-observed');
  });
  it('retry.growing-waits: a shorter wait after a longer one is jitter, unless the schedule shows none', () => {
    // Full jitter drew 360 ms, then 160 ms: no fault (and nothing grew: undecided).
    const jitter = statusOf(observed(sequence(0, [360, 160])), 'retry.growing-waits');
    expect(jitter.status).toBe('not-observed');
    expect(jitter.summary).toMatch(/360 ms, then 160 ms/);
    // The same shrinking schedule in three sequences without spread: the schedule does not grow.
    const paths = ['/api/public/v1/providers', '/api/public/v1/connectors', '/api/public/v1/capabilities'];
    const lockstep = paths.flatMap((p, i) => sequence(i * 10_000, [400, 150], p));
    expect(statusOf(observed(lockstep), 'retry.growing-waits').status).toBe('fail');
    // Equal waits in most sequences of a spread client: its schedule.
    const flat = paths.flatMap((p, i) => sequence(i * 10_000, [300 + i * 90, 300 + i * 90], p));
    expect(statusOf(observed(flat), 'retry.growing-waits').status).toBe('fail');
  });
  it('retry.growing-waits: one equal pair in a single jittered sequence that otherwise grows is a draw', () => {
    // Sidekiq's default delays (count**4 + 15 + rand(10) * (count + 1) s) drew 18 s twice, then 40 s:
    // its spread cannot be seen in one sequence, and most of its pairs grew.
    expect(statusOf(observed(sequence(0, [18_000, 18_000, 40_000])), 'retry.growing-waits').status).toBe('pass');
    // Mostly equal waits in one sequence are still its schedule.
    expect(statusOf(observed(sequence(0, [1_000, 1_000, 1_000])), 'retry.growing-waits').status).toBe('fail');
    expect(statusOf(observed(sequence(0, [1_000, 1_000, 2_000, 2_000])), 'retry.growing-waits').status).toBe('fail');
  });
  it('retry.spread: the median same-position difference of retry sequences decides', () => {
    const lockstep = [
      ...sequence(0, [300, 600]),
      ...sequence(10_000, [305, 600], '/api/public/v1/connectors'),
      ...sequence(20_000, [302, 604], '/api/public/v1/capabilities'),
    ];
    expect(statusOf(observed(lockstep), 'retry.spread').status).toBe('fail');
    // Two sequences alone never show "no spread": random draws fall this close now and then.
    expect(statusOf(observed(lockstep.slice(0, 6)), 'retry.spread').status).toBe('not-observed');
    const spread = [...sequence(0, [300, 600]), ...sequence(10_000, [420, 700], '/api/public/v1/connectors')];
    expect(statusOf(observed(spread), 'retry.spread').status).toBe('pass');
    const undecided = [...sequence(0, [300, 600]), ...sequence(10_000, [320, 620], '/api/public/v1/connectors')];
    expect(statusOf(observed(undecided), 'retry.spread').status).toBe('not-observed');
  });
  it('retry.spread: a fixed first wait, then drawn ones (Python retry), is judged by its drawn position', () => {
    const p = ['/api/public/v1/providers', '/api/public/v1/connectors', '/api/public/v1/capabilities'];
    // Second waits 1,100, 1,130 and 1,160 ms: their differences (30, 60, 30) are no lockstep, though the first
    // waits' zeros make half of all differences.
    const close = [1_100, 1_130, 1_160].flatMap((w, i) => sequence(i * 10_000, [500, w], p[i]));
    expect(statusOf(observed(close), 'retry.spread').status).toBe('not-observed');
    // Second waits far apart at one position: spread, whatever the fixed first waits add.
    const apart = [1_100, 1_110, 1_300].flatMap((w, i) => sequence(i * 10_000, [500, w], p[i]));
    expect(statusOf(observed(apart), 'retry.spread').status).toBe('pass');
  });
  it('retry.spread: three single retries close together are too few to judge; four are enough', () => {
    // Three uniform 0-250 ms draws land this close about 3 % of the time (round 8): a jittered client
    // must not fail on that. Six comparisons (four single retries, or three sequences of two) decide.
    const paths = ['/api/public/v1/providers', '/api/public/v1/connectors', '/api/public/v1/capabilities'];
    const single = (n: number) =>
      Array.from({ length: n }, (_, i) => sequence(i * 10_000, [423 + i * 4], paths[i % 3])).flat();
    expect(statusOf(observed(single(3)), 'retry.spread').status).toBe('not-observed');
    expect(statusOf(observed(single(4)), 'retry.spread').status).toBe('fail');
  });
  it('retry.spread: immediate first retries (both under 50 ms) are not compared', () => {
    // urllib3 Retry(backoff_factor=0.25, backoff_jitter=0.3): no sleep before the first retry, then
    // 500 ms and 1 s plus a draw of up to 300 ms. The zeros at position 1 said "no spread".
    const urllib3 = [
      ...sequence(0, [0, 653, 1159]),
      ...sequence(10_000, [0, 682, 1177], '/api/public/v1/connectors'),
      ...sequence(20_000, [0, 755, 1161], '/api/public/v1/capabilities'),
    ];
    expect(statusOf(observed(urllib3), 'retry.spread').status).not.toBe('fail');
    // Retrying at once every time is still judged: by retry.growing-waits.
    const storm = [...sequence(0, [0, 0]), ...sequence(10_000, [0, 0], '/api/public/v1/connectors')];
    expect(statusOf(observed(storm), 'retry.growing-waits').status).toBe('fail');
  });
  it('retry.attempt-limit: more than four attempts in a row fail (SHOULD: exit code stays 0)', () => {
    const obs = observed(sequence(0, [100, 200, 400, 800]));
    expect(statusOf(obs, 'retry.attempt-limit').status).toBe('fail');
    expect(evaluateClientRules(obs, []).exitCode).toBe(0);
    expect(statusOf(observed(sequence(0, [100, 200, 400])), 'retry.attempt-limit').status).toBe('pass');
  });
  it('stream.resume-from-last-read: gap, re-read, beyond, and a proper resume', () => {
    const prev = stream({ at: 0, endedAt: 1000, firstId: 1, lastId: 7 });
    const judge = (cursor: number | undefined) =>
      statusOf(observed([], [prev, stream({ at: 1200, cursor })]), 'stream.resume-from-last-read');
    expect(judge(7).status).toBe('pass');
    expect(judge(undefined).evidence[0]?.note).toMatch(/a gap/);
    expect(judge(0).evidence[0]?.note).toMatch(/read again/);
    expect(judge(9).evidence[0]?.note).toMatch(/beyond/);
    // A second stream opened while the first is still open is not a resume.
    const open = observed([], [stream({ at: 0, lastId: 3 }), stream({ at: 10 })]);
    expect(statusOf(open, 'stream.resume-from-last-read').status).toBe('not-observed');
  });
  it('stream.resume-from-last-read: a client that closed its stream mid-burst resumes from what it read', () => {
    // A Kafka-style poller (max.poll.records 3): 8 messages sent at once, 3 taken, the connection closed.
    const judge = (over: Parameters<typeof stream>[0], cursor: number) =>
      statusOf(observed([], [stream(over), stream({ at: 1200, cursor })]), 'stream.resume-from-last-read');
    const batch = { at: 0, endedAt: 1000, firstId: 1, lastId: 8, lastAt: 995, burstFirstId: 1, closedByClient: true };
    expect(judge(batch, 3).status).toBe('pass');
    expect(judge(batch, 1).status).toBe('pass');
    // From before the burst: it read the burst (it closed as it arrived) and reads it again.
    expect(judge(batch, 0).status).toBe('fail');
    // The server ended the stream (a cut): everything sent was read, so 3 re-reads.
    expect(judge({ ...batch, closedByClient: false }, 3).status).toBe('fail');
    // Before the last burst, or with the burst long arrived when the client closed: read.
    expect(judge({ ...batch, burstFirstId: 6 }, 3).status).toBe('fail');
    expect(judge({ ...batch, lastAt: 0, endedAt: 1150 }, 3).status).toBe('fail');
  });
  it('auth.token-reused: tokens used once and replaced while still valid fail from the second one', () => {
    const calls = [0, 1, 2].map((i) => call({ at: i * 100, token: testToken(i * 100) }));
    expect(statusOf(observed(calls), 'auth.token-reused').status).toBe('fail');
    expect(statusOf(observed(calls.slice(1)), 'auth.token-reused').status).toBe('pass');
    // Two calls per token is churn too.
    const twice = [0, 1, 2].flatMap((i) => [0, 1].map((j) => call({ at: i * 100 + j, token: testToken(i * 100) })));
    expect(statusOf(observed(twice), 'auth.token-reused').status).toBe('fail');
    // Renewed with less than half the life left (5 minutes of 15), or in a later run: no churn.
    const early = [0, 1, 2].map((i) => call({ at: i * 100, token: testToken(i * 600_000) }));
    expect(statusOf(observed(early), 'auth.token-reused').status).toBe('pass');
    const runs = [0, 1, 2].map((i) => call({ at: i * 60_000, token: testToken(i * 100) }));
    expect(statusOf(observed(runs), 'auth.token-reused').status).toBe('pass');
  });
  it('auth.token-reused: a process calling every 15 s that replaces its token every 90 s, most of its life left, churns', () => {
    // An absolute eager-refresh threshold (3 min 45 s) on 5-minute tokens: each replaced 90 s after
    // issue, the next call 15 s after the last one, as all its calls are. Not a later run: its cadence.
    const tokens = [0, 1, 2, 3].map((k) => ({ ...testToken(k * 90_000), expiresAt: k * 90_000 + 300_000 }));
    const calls = Array.from({ length: 24 }, (_, i) => call({ at: i * 15_000, token: tokens[Math.floor(i / 6)] }));
    expect(statusOf(observed(calls), 'auth.token-reused').status).toBe('fail');
    // A job started every minute (three calls close together, a token per run) is still no churn.
    const perRun = [0, 1, 2, 3].map((run) => testToken(run * 60_000));
    const cron = [0, 1, 2, 3].flatMap((run) =>
      [0, 1, 2].map((j) => call({ at: run * 60_000 + j * 200, token: perRun[run] })),
    );
    expect(statusOf(observed(cron), 'auth.token-reused').status).toBe('pass');
  });
  it('auth.token-reused: a token cache renewing 5 minutes before expiry on 8-minute tokens renews near expiry', () => {
    // Each token held 3 of its 8 minutes (over a third), replaced with 5 left: inside a cache's usual window.
    const reads = (held: number) => {
      const tokens = Array.from({ length: 8 }, (_, k) => ({ ...testToken(k * held), expiresAt: k * held + 480_000 }));
      return Array.from({ length: 60 }, (_, i) =>
        call({ at: i * 15_000, token: tokens[Math.floor((i * 15_000) / held)] }),
      );
    };
    expect(statusOf(observed(reads(180_000)), 'auth.token-reused').status).toBe('pass');
    // Held 2 minutes (a quarter), 6 left: outside the window, churn.
    expect(statusOf(observed(reads(120_000)), 'auth.token-reused').status).toBe('fail');
  });
  it('stream.resume-from-last-read: a stream opened beside another resumes nothing; parallel resumes match', () => {
    const a = stream({ at: 0, endedAt: 1000, firstId: 1, lastId: 1, lastAt: 900 });
    const b = stream({ at: 100, endedAt: 2000, firstId: 1, lastId: 3, lastAt: 1900 });
    const a2 = stream({ at: 1100, cursor: 1, endedAt: 3000 });
    const b2 = stream({ at: 2100, cursor: 3 });
    const r = statusOf(observed([], [a, b, a2, b2]), 'stream.resume-from-last-read');
    expect(r.status).toBe('pass');
    expect(r.summary).toMatch(/^2 /);
  });
  it('stream.resume-from-last-read: a consumer back after the window resumes its own reading, not the one another just left', () => {
    // A batch job read up to 3 and left; six minutes later it resumes from 3, just after a live
    // consumer of the same client was cut at 6, which then resumes from 6: two proper resumes.
    const batch = stream({ at: 0, endedAt: 1_000, firstId: 1, lastId: 3, lastAt: 900 });
    const live = stream({ at: 100, endedAt: 361_000, firstId: 1, lastId: 6, lastAt: 360_900 });
    const batch2 = stream({ at: 361_100, cursor: 3, endedAt: 361_200, firstId: 4, lastId: 6, lastAt: 361_150 });
    const live2 = stream({ at: 361_300, cursor: 6 });
    const r = statusOf(observed([], [batch, live, batch2, live2]), 'stream.resume-from-last-read');
    expect(r.status, JSON.stringify(r.evidence)).toBe('pass');
    expect(r.summary).toMatch(/^2 /);
    // The same cursor with no earlier reading that ended there is still read again.
    const stale = statusOf(observed([], [live, stream({ at: 361_100, cursor: 3 })]), 'stream.resume-from-last-read');
    expect(stale.status).toBe('fail');
  });
  it("retry.growing-waits: waits that ignore a Retry-After are the client's own and are judged", () => {
    // Three 503s with Retry-After: 1, retried at once: no growth, though each answer named a wait.
    const storm = [0, 1, 2, 3].map((i) =>
      call({ at: i * 10, status: i < 3 ? 503 : 200, retryAfterMs: i < 3 ? 1000 : undefined }),
    );
    expect(statusOf(observed(storm), 'retry.growing-waits').status).toBe('fail');
    // Waited out each time: the server set those waits, none is judged.
    const waited = [0, 1, 2, 3].map((i) =>
      call({ at: i * 1010, status: i < 3 ? 503 : 200, retryAfterMs: i < 3 ? 1000 : undefined }),
    );
    expect(statusOf(observed(waited), 'retry.growing-waits').status).toBe('not-observed');
  });
  it('judges the waits and attempts of retries only: repeats after a 4xx are retry.only-after-failure alone', () => {
    // Five reads repeated after 401s at one cadence (not recognised as polling: nothing succeeded before).
    const repeats = [0, 1, 2, 3, 4].map((i) => call({ at: i * 205, status: 401 }));
    const rules = evaluateClientRules(observed(repeats), []).rules;
    expect(rules.filter((r) => r.status === 'fail').map((r) => r.id)).toEqual(['retry.only-after-failure']);
  });
  it('idempotency.one-key-one-content: only where the service compares keys (routes that require one)', () => {
    const CHECK = { method: 'POST', path: '/api/public/v1/capabilities', modifying: false };
    const checks = [
      call({ ...CHECK, at: 0, key: 'session-key-1', body: 'a' }),
      call({ ...CHECK, at: 9, key: 'session-key-1', body: 'b' }),
    ];
    expect(statusOf(observed(checks), 'idempotency.one-key-one-content').status).toBe('not-observed');
  });
  it('idempotency.one-key-one-content: a key used again past its validity starts a new operation', () => {
    const POST = { method: 'POST', path: '/api/public/v1/connections' };
    const day = 24 * 3600_000;
    const calls = [call({ ...POST, at: 0, key: 'k', body: 'a' }), call({ ...POST, at: day + 1, key: 'k', body: 'b' })];
    const judge = (keyValidityMs?: number) =>
      evaluateClientRules(observed(calls), [], {}, undefined, keyValidityMs ? { keyValidityMs } : {}).rules.find(
        (r) => r.id === 'idempotency.one-key-one-content',
      )?.status;
    expect(judge(day)).toBe('pass');
    expect(judge(2 * day)).toBe('fail');
    expect(judge()).toBe('fail');
  });
  it('version.service-version-sent and idempotency.one-key-one-content', () => {
    expect(statusOf(observed([call({ at: 0, version: 'latest' })]), 'version.service-version-sent').status).toBe(
      'fail',
    );
    const POST = { method: 'POST', path: '/api/public/v1/connections' };
    const conflict = [
      call({ ...POST, at: 0, key: 'k', body: 'a' }),
      call({ ...POST, at: 10, key: 'k', body: 'b', status: 409, code: 'idempotency_conflict' }),
    ];
    const rules = evaluateClientRules(observed(conflict), []).rules;
    expect(rules.filter((r) => r.status === 'fail').map((r) => r.id)).toEqual(['idempotency.one-key-one-content']);
  });
});
