// An independent deployment ("elm", written from interface.md alone, ASP.NET Core style on node:http)
// judged by the kit in process: without a deployment profile and with the profile declaring elm's choices.
// Expected: no failed MUST, no failed SHOULD, exit code 0. Each run gets a fresh elm: its fixed window of
// 600 calls a minute per client id would otherwise be spent by the first run (~370 calls).
import { fileURLToPath } from 'node:url';
import { expect, test } from 'vitest';
import type { ElmOptions } from './independent/elm/server.ts';
import { startElm } from './independent/elm/server.ts';
import { judgeIndependent } from './independent-options.ts';

const PROFILE = fileURLToPath(new URL('./independent/elm/elm-profile.json', import.meta.url));

const judge = (profile?: string, options: ElmOptions = {}) => judgeIndependent(() => startElm(options), profile);

test.concurrent('elm without a deployment profile: no failed MUST or SHOULD, exit code 0', {
  timeout: 120_000,
}, async () => {
  const { run, failed } = await judge();
  expect(failed).toEqual([]);
  expect(run.exitCode).toBe(0);
});

test.concurrent('elm with its deployment profile: no failed MUST or SHOULD, exit code 0', {
  timeout: 120_000,
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

// Another legal choice: Service-Version mandatory (the contract: "Whether the header is mandatory ... not shown").
test.concurrent('elm with Service-Version mandatory: no failed MUST with its profile', {
  timeout: 120_000,
}, async () => {
  const { run, failed } = await judge(PROFILE, { serviceVersionRequired: true });
  expect(failed.filter((f) => f.startsWith('MUST'))).toEqual([]);
  expect(run.exitCode).toBe(0);
});

// Timing choices the contract leaves open: streams the server ends after 1.5 s (clients resume) and an
// outbox relayed every 2 s.
test.concurrent('elm with short-lived streams and a slow outbox: no failed MUST with its profile', {
  timeout: 120_000,
}, async () => {
  const { run, failed } = await judge(PROFILE, { streamMaxMs: 1500, outboxPollMs: 2000 });
  expect(failed.filter((f) => f.startsWith('MUST'))).toEqual([]);
  expect(run.exitCode).toBe(0);
});

// Access tokens of 2 s (lifetimes are "not shown"): the kit must renew its token during the run.
test.concurrent('elm with 2 s tokens: no failed MUST with its profile', { timeout: 120_000 }, async () => {
  const { run, failed } = await judge(PROFILE, { tokenLifetimeS: 2 });
  expect(failed.filter((f) => f.startsWith('MUST'))).toEqual([]);
  expect(run.exitCode).toBe(0);
});

// An audit log whose page holds at most 20 entries ("Response fields and further parameters: not shown";
// the OpenAPI document states maximum 20): the kit reads the maximum from the document (was: ?limit=50 always).
test.concurrent('elm with an audit-log limit of at most 20: no failed MUST with its profile', {
  timeout: 120_000,
}, async () => {
  const { run, failed } = await judge(PROFILE, { auditMaxLimit: 20 });
  expect(failed.filter((f) => f.startsWith('MUST'))).toEqual([]);
  expect(run.exitCode).toBe(0);
});
