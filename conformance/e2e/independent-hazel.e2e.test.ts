// An independent deployment ("hazel", written from interface.md alone, Java/Spring service behind a
// Kong-like gateway) judged by the kit in process: without a deployment profile and with the profile
// declaring hazel's own choices, then two variants with other legal choices switched on.
// hazel's default rate limit (120 calls per 30 s, both addresses in one window) makes a full run wait
// out one or two windows (about a minute of waiting, little CPU): the runs here count 60 calls in windows
// of 5 s, so the kit still waits out 429s and provokes its burst, in seconds.
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { runConformance } from '../index.ts';
import type { Hazel, StartOptions } from './independent/hazel/server.ts';
import { startHazel } from './independent/hazel/server.ts';
import { independentOptions } from './independent-options.ts';

const PROFILE = fileURLToPath(new URL('./independent/hazel/hazel-profile.json', import.meta.url));
let hazel: Hazel;

/** hazel's fixed window, shortened: the kit meets its 429s within a run of seconds. */
const SHORT_WINDOW = { rateLimit: 60, windowMs: 5_000 } as const;
/** A window the profile's burst (300 calls) still fills, and a run seldom does. */
const WIDER_WINDOW = { rateLimit: 200, windowMs: 5_000 } as const;

beforeAll(async () => {
  hazel = await startHazel(SHORT_WINDOW);
});
afterAll(async () => {
  await hazel.close();
});

async function judge(profile?: string, target: Hazel = hazel) {
  const run = await runConformance(independentOptions(target, profile));
  const failed = run.results
    .filter((r) => r.status !== 'pass' && r.status !== 'skip')
    .map((r) => `${r.check.severity} ${r.check.name}: ${JSON.stringify(r.failures).slice(0, 600)}`);
  return { run, failed };
}

async function variant(options: StartOptions, profile?: string) {
  const target = await startHazel(options);
  try {
    return await judge(profile, target);
  } finally {
    await target.close();
  }
}

test('hazel without a deployment profile: no failed MUST or SHOULD, exit code 0', { timeout: 240_000 }, async () => {
  const { run, failed } = await judge();
  expect(failed).toEqual([]);
  expect(run.exitCode).toBe(0);
});

test('hazel with its deployment profile: no failed MUST or SHOULD, exit code 0', { timeout: 240_000 }, async () => {
  const { run, failed } = await variant(WIDER_WINDOW, PROFILE);
  expect(failed).toEqual([]);
  expect(run.exitCode).toBe(0);
  // declared in the profile: the delivery log, redelivery, capability_denied and the 429 of a bounded burst
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

// HAZEL_VERSION_REQUIRED, HAZEL_BEARER_ONLY_POST, HAZEL_SEPARATE_ALT_WINDOW: Service-Version mandatory on
// authenticated calls, a token endpoint taking client_secret_post only, and the alternate address
// counted in a rate window of its own (default limit, so the window matters).
test('hazel with the version required, post-only client auth and a separate alt window', {
  timeout: 240_000,
}, async () => {
  const { run, failed } = await variant(
    { ...WIDER_WINDOW, versionRequired: 'authenticated', secretPostOnly: true, separateAltWindow: true },
    PROFILE,
  );
  expect(failed).toEqual([]);
  expect(run.exitCode).toBe(0);
});

// HAZEL_AUDIT_JCS, HAZEL_STRICT_FIELDS, HAZEL_DELIVERY_LOG_SINCE_CURRENT: the audit proof names sha256 and
// RFC 8785 (with hazel's own proof fields: another proof format, not recomputed by the kit), unknown body
// fields refused, the delivery log hidden from 2026-06-12 callers.
test('hazel with a JCS-declared audit proof, strict bodies and the delivery log since 2026-07-01', {
  timeout: 120_000,
}, async () => {
  const { run, failed } = await variant(
    { rateLimit: 100_000, auditJcs: 'sha256', strictFields: true, deliveryLogSinceCurrent: true },
    PROFILE,
  );
  expect(failed).toEqual([]);
  expect(run.exitCode).toBe(0);
});

// HAZEL_RECORD_REFUSALS=all, HAZEL_ZONE_OFFSET_MINUTES=60, HAZEL_ANONYMOUS_RATE, HAZEL_PING_ON_REGISTER,
// HAZEL_SPRING_PAGES, HAZEL_VERSION_REQUIRED=all: every refusal of a keyed call replayed under its key (a
// gateway cache), times in +01:00, callers without a token counted per address (with the headers), a
// signed webhook.ping after each registration, Spring Data pages for the audit and delivery logs, and
// Service-Version mandatory on every call, public ones included.
test('hazel with refusals recorded, +01:00 times, pings, Spring pages and the version always required', {
  timeout: 120_000,
}, async () => {
  const { run, failed } = await variant(
    {
      rateLimit: 100_000,
      recordRefusals: 'all',
      zoneOffsetMinutes: 60,
      anonymousRate: true,
      pingOnRegister: true,
      springPages: true,
      versionRequired: 'all',
    },
    PROFILE,
  );
  expect(failed).toEqual([]);
  expect(run.exitCode).toBe(0);
});
