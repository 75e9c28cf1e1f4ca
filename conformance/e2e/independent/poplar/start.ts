// Starts poplar by hand: npx node conformance/e2e/independent/poplar/start.ts [out.json]
// POPLAR_* variables switch on other legal choices (see README.md).
import { writeFileSync } from 'node:fs';
import { startPoplar } from './server.ts';

const env = process.env;
const num = (name: string) => (env[name] ? Number(env[name]) : undefined);
const target = await startPoplar(
  {
    rateLimit: num('POPLAR_RATE_LIMIT'),
    windowMs: num('POPLAR_WINDOW_MS'),
    tokenTtlSec: num('POPLAR_TOKEN_TTL_SEC'),
    listLagMs: num('POPLAR_LIST_LAG_MS'),
    activationMs: num('POPLAR_ACTIVATION_MS'),
    minBackoffMs: num('POPLAR_MIN_BACKOFF_MS'),
    maxBackoffMs: num('POPLAR_MAX_BACKOFF_MS'),
    maxDoublings: num('POPLAR_MAX_DOUBLINGS'),
    maxAttempts: num('POPLAR_MAX_ATTEMPTS'),
    ignoreUnknownFields: env.POPLAR_IGNORE_UNKNOWN_FIELDS === '1',
    serviceVersionRequired: env.POPLAR_SERVICE_VERSION_REQUIRED === '1',
    minimalAttributes: env.POPLAR_MINIMAL_ATTRIBUTES === '1',
    listDownloads: env.POPLAR_LIST_DOWNLOADS !== '0',
    auditOldestFirst: env.POPLAR_AUDIT_OLDEST_FIRST === '1',
    redeliverAsNewTask: env.POPLAR_REDELIVER_AS_NEW_TASK === '1',
    streamMaxMs: num('POPLAR_STREAM_MAX_MS'),
    streamEnvelope: env.POPLAR_STREAM_ENVELOPE === 'pubsub' ? 'pubsub' : 'json',
  },
  [num('POPLAR_PORT') ?? 0, num('POPLAR_ALT_PORT') ?? 0],
);
const { state: _state, close: _close, ...printable } = target;
const text = JSON.stringify(printable, null, 2);
if (process.argv[2]) writeFileSync(process.argv[2], text);
console.log(text);
process.on('SIGINT', () => void target.close().then(() => process.exit(0)));
process.on('SIGTERM', () => void target.close().then(() => process.exit(0)));
