// Starts sumac by hand and writes its addresses and credentials (JSON) to a file or stdout:
//   npx node conformance/e2e/independent/sumac/start.ts [ready-file.json]
// SUMAC_* variables switch on other legal choices (each is also a startSumac() option):
//   SUMAC_RATE_LIMIT=n, SUMAC_WINDOW_MS=ms      calls per fixed window (default 600 per 60 000 ms)
//   SUMAC_BACKOFF=1,5,10                        the delivery worker's backoff array (seconds)
//   SUMAC_QUEUE_DELAY_MS=ms                     how long a queued delivery waits for the worker
//   SUMAC_ACTIVATION_MS=ms                      pending -> active after this long (default 400)
//   SUMAC_REDACT_KEY_ON_REPLAY=1                a replayed registration leaves signing_secret out
//   SUMAC_LINK_HEADER=1                         an RFC 8288 Link: rel="next" beside links.next
//   SUMAC_OLDEST_FIRST=1                        audit and delivery logs oldest first
//   SUMAC_PAGE_MAX=n                            the largest limit of a page (default 100)
//   SUMAC_CLASS_EVENT_NAMES=1                   stream messages named App\Events\ConnectionCreated
//   SUMAC_VERSIONED_DELIVERY_LOG=1              the delivery log answers 404 to Service-Version 2026-06-12
//   SUMAC_SERVICE_VERSION_REQUIRED=1            a call without Service-Version answers 400
//   SUMAC_CARBON_TIMES=1                        date-times as Carbon's toIso8601String() (+00:00, no fraction)
// The client secret is written to the ready file only: keep that file out of version control.
import { writeFileSync } from 'node:fs';
import { type SumacOptions, startSumac } from './server.ts';

const env = process.env;
const num = (v: string | undefined) => (v ? Number(v) : undefined);
const flag = (v: string | undefined) => v === '1';

const options: SumacOptions = {
  rateLimit: num(env.SUMAC_RATE_LIMIT),
  windowMs: num(env.SUMAC_WINDOW_MS),
  backoff: env.SUMAC_BACKOFF ? env.SUMAC_BACKOFF.split(',').map(Number) : undefined,
  queueDelayMs: num(env.SUMAC_QUEUE_DELAY_MS),
  activationMs: num(env.SUMAC_ACTIVATION_MS),
  redactKeyOnReplay: flag(env.SUMAC_REDACT_KEY_ON_REPLAY),
  linkHeader: flag(env.SUMAC_LINK_HEADER),
  oldestFirst: flag(env.SUMAC_OLDEST_FIRST),
  pageMax: num(env.SUMAC_PAGE_MAX),
  classEventNames: flag(env.SUMAC_CLASS_EVENT_NAMES),
  versionedDeliveryLog: flag(env.SUMAC_VERSIONED_DELIVERY_LOG),
  serviceVersionRequired: flag(env.SUMAC_SERVICE_VERSION_REQUIRED),
};

const target = await startSumac(options);
const { close: _close, ...printable } = target;
const out = process.argv[2];
if (out) writeFileSync(out, JSON.stringify(printable, null, 2));
else console.log(JSON.stringify({ ...printable, clientSecret: '(written only with a ready file)' }, null, 2));

const stop = () => void target.close().then(() => process.exit(0));
process.on('SIGINT', stop);
process.on('SIGTERM', stop);
