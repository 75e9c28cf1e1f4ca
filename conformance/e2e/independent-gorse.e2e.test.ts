// An independent deployment ("gorse", written from interface.md alone, Rust/Axum edge style on node:http)
// judged by the kit in process: without a deployment profile and with the profile declaring gorse's choices.
// Expected: no failed MUST, no failed SHOULD, exit code 0. Each run gets a fresh gorse.
import { fileURLToPath } from 'node:url';
import { expect, test } from 'vitest';
import type { GorseOptions } from './independent/gorse/server.ts';
import { startGorse } from './independent/gorse/server.ts';
import { judgeIndependent } from './independent-options.ts';

const PROFILE = fileURLToPath(new URL('./independent/gorse/gorse-profile.json', import.meta.url));

const judge = (profile?: string, options: GorseOptions = {}) => judgeIndependent(() => startGorse(options), profile);

test.concurrent('gorse without a deployment profile: no failed MUST or SHOULD, exit code 0', {
  timeout: 180_000,
}, async () => {
  const { run, failed } = await judge();
  expect(failed).toEqual([]);
  expect(run.exitCode).toBe(0);
});

test.concurrent('gorse with its deployment profile: no failed MUST or SHOULD, exit code 0', {
  timeout: 180_000,
}, async () => {
  const { run, failed } = await judge(PROFILE);
  expect(failed).toEqual([]);
  expect(run.exitCode).toBe(0);
  const judged = new Set(run.results.filter((r) => r.status === 'pass').map((r) => r.check.name));
  for (const name of [
    'webhooks.delivery-log',
    'webhooks.redelivery',
    'errors.capability-denied',
    'rate-limit.retry-after',
  ]) {
    expect(judged, name).toContain(name);
  }
});

// Short-lived tokens (lifetimes are "not shown"): the kit must renew its token during the run.
test.concurrent('gorse with 3 s tokens: no failed MUST with its profile', { timeout: 180_000 }, async () => {
  const { run, failed } = await judge(PROFILE, { tokenLifetimeS: 3 });
  expect(failed.filter((f) => f.startsWith('MUST'))).toEqual([]);
  expect(run.exitCode).toBe(0);
});

// Other legal choices at once: streams an edge runtime ends after 1.5 s, the signing key left out of a
// replayed registration, connections suspended after going live, unknown query parameters refused,
// a check of an unknown connector answered 404, every webhook delivery sent twice (at least once).
test.concurrent('gorse with its other legal choices: no failed MUST or SHOULD with its profile', {
  timeout: 180_000,
}, async () => {
  const { run, failed } = await judge(PROFILE, {
    streamMaxMs: 1500,
    redactSecretOnReplay: true,
    liveAfterMs: 300,
    suspendAfterMs: 500,
    strictQuery: true,
    unknownConnector404: true,
    duplicateDeliveries: true,
  });
  expect(failed).toEqual([]);
  expect(run.exitCode).toBe(0);
});

// A token bucket (60 calls, 12 refilled a second: a whole run still meets its 429s): Remaining may stay level between two calls because the
// bucket refilled meanwhile ("The current values and the length of the window: not shown").
test.concurrent('gorse with a small token bucket: no failed MUST or SHOULD with its profile', {
  timeout: 180_000,
}, async () => {
  const { run, failed } = await judge(PROFILE, { bucketSize: 60, refillPerSecond: 12 });
  expect(failed).toEqual([]);
  expect(run.exitCode).toBe(0);
});

// An Axum `Json<T>` extractor refuses a POST without a JSON content type, also the bodyless resend of a
// delivery (its payload is "not shown"; the profile has no field to declare one).
test.concurrent('gorse requiring application/json on every POST: no failed MUST with its profile', {
  timeout: 180_000,
}, async () => {
  const { run, failed } = await judge(PROFILE, { strictContentType: true });
  expect(failed.filter((f) => f.startsWith('MUST'))).toEqual([]);
  expect(run.exitCode).toBe(0);
});
