// An independent deployment ("fern", written from interface.md alone, FastAPI + Pydantic style behind an
// nginx front, on node:http) judged by the kit in process: without a deployment profile and with the
// profile declaring fern's choices. Expected: no failed MUST, no failed SHOULD, exit code 0. Each run
// gets a fresh fern, so one run's calls do not spend the next run's rate-limit window.
import { fileURLToPath } from 'node:url';
import { expect, test } from 'vitest';
import type { FernOptions } from './independent/fern/server.ts';
import { startFern } from './independent/fern/server.ts';
import { judgeIndependent } from './independent-options.ts';

const PROFILE = fileURLToPath(new URL('./independent/fern/fern-profile.json', import.meta.url));

const judge = (profile?: string, options: FernOptions = {}) => judgeIndependent(() => startFern(options), profile);

test.concurrent('fern without a deployment profile: no failed MUST or SHOULD, exit code 0', {
  timeout: 180_000,
}, async () => {
  const { run, failed } = await judge();
  expect(failed).toEqual([]);
  expect(run.exitCode).toBe(0);
});

test.concurrent('fern with its deployment profile: no failed MUST or SHOULD, exit code 0', {
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

// The other legal choice: Service-Version optional ("Whether the header is mandatory ... not shown").
test.concurrent('fern with Service-Version optional: no failed MUST with its profile', {
  timeout: 180_000,
}, async () => {
  const { run, failed } = await judge(PROFILE, { versionOptional: true });
  expect(failed.filter((f) => f.startsWith('MUST'))).toEqual([]);
  expect(run.exitCode).toBe(0);
});

// fern's other legal choices at once: Service-Version required on the public endpoints too, 3 s tokens,
// 150 calls per 10 s, a newest-first audit log paged by a Link header, a resend keeping its delivery id,
// unknown query parameters refused, indented stream payloads over several data lines, slow activation.
test.concurrent('fern with its other legal choices: no failed MUST with its profile', {
  timeout: 180_000,
}, async () => {
  const { run, failed } = await judge(PROFILE, {
    versionEverywhere: true,
    tokenLifetimeS: 3,
    rateLimit: 150,
    windowMs: 10_000,
    auditNewestFirst: true,
    resendSameId: true,
    strictQuery: true,
    ssePretty: true,
    activationMs: 2000,
  });
  expect(failed.filter((f) => f.startsWith('MUST'))).toEqual([]);
  expect(run.exitCode).toBe(0);
});
