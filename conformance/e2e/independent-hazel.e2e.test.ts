// An independent deployment ("hazel", written from interface.md alone, Java/Spring service behind a
// Kong-like gateway) judged by the kit in process: without a deployment profile and with the profile
// declaring hazel's own choices, then variants with other legal choices switched on.
// hazel's default rate limit (120 calls per 30 s, both addresses in one window) makes a full run wait
// out one or two windows (about a minute of waiting, little CPU): the runs here count 150 calls in windows
// of 5 s, so the kit still waits out 429s (a few windows a run) and provokes its burst, in seconds.
import { fileURLToPath } from 'node:url';
import { startHazel } from './independent/hazel/server.ts';
import { independentSuite, PROFILE_JUDGED } from './independent-suite.ts';

const PROFILE = fileURLToPath(new URL('./independent/hazel/hazel-profile.json', import.meta.url));

/** hazel's fixed window, shortened: the kit meets its 429s within a run of seconds. */
const SHORT_WINDOW = { rateLimit: 150, windowMs: 5_000 } as const;
/** A window the profile's burst (300 calls) still fills, and a run seldom does. */
const WIDER_WINDOW = { rateLimit: 200, windowMs: 5_000 } as const;

independentSuite({
  deployment: 'hazel',
  start: startHazel,
  concurrent: false,
  timeout: 240_000,
  runs: [
    { name: 'without a deployment profile', options: SHORT_WINDOW },
    // declared in the profile: the delivery log, redelivery, capability_denied and the 429 of a bounded burst
    { name: 'with its deployment profile', options: WIDER_WINDOW, profile: PROFILE, judged: PROFILE_JUDGED },
    // HAZEL_VERSION_REQUIRED, HAZEL_BEARER_ONLY_POST, HAZEL_SEPARATE_ALT_WINDOW: Service-Version mandatory on
    // authenticated calls, a token endpoint taking client_secret_post only, and the alternate address
    // counted in a rate window of its own (default limit, so the window matters).
    {
      name: 'with the version required, post-only client auth and a separate alt window',
      options: { ...WIDER_WINDOW, versionRequired: 'authenticated', secretPostOnly: true, separateAltWindow: true },
      profile: PROFILE,
    },
    // HAZEL_AUDIT_JCS, HAZEL_STRICT_FIELDS, HAZEL_DELIVERY_LOG_SINCE_CURRENT: the audit proof names sha256 and
    // RFC 8785 (with hazel's own proof fields: another proof format, not recomputed by the kit), unknown body
    // fields refused, the delivery log hidden from 2026-06-12 callers.
    {
      name: 'with a JCS-declared audit proof, strict bodies and the delivery log since 2026-07-01',
      options: { rateLimit: 100_000, auditJcs: 'sha256', strictFields: true, deliveryLogSinceCurrent: true },
      profile: PROFILE,
    },
    // HAZEL_RECORD_REFUSALS=all, HAZEL_ZONE_OFFSET_MINUTES=60, HAZEL_ANONYMOUS_RATE, HAZEL_PING_ON_REGISTER,
    // HAZEL_SPRING_PAGES, HAZEL_VERSION_REQUIRED=all: every refusal of a keyed call replayed under its key (a
    // gateway cache), times in +01:00, callers without a token counted per address (with the headers), a
    // signed webhook.ping after each registration, Spring Data pages for the audit and delivery logs, and
    // Service-Version mandatory on every call, public ones included.
    {
      name: 'with refusals recorded, +01:00 times, pings, Spring pages and the version always required',
      options: {
        rateLimit: 100_000,
        recordRefusals: 'all',
        zoneOffsetMinutes: 60,
        anonymousRate: true,
        pingOnRegister: true,
        springPages: true,
        versionRequired: 'all',
      },
      profile: PROFILE,
    },
  ],
});
