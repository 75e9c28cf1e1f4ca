// Starts sequoia by hand: `npx node conformance/e2e/independent/sequoia/start.ts [file.json]` prints (or
// writes) the addresses and credentials. SEQUOIA_* variables set the limiter, the outbox timings and the
// other legal choices (README.md).
import { writeFileSync } from 'node:fs';
import { type SequoiaOptions, startSequoia } from './server.ts';

const env = process.env;
const num = (name: string) => (env[name] ? Number(env[name]) : undefined);
const flag = (name: string) => env[name] === '1';
const s = await startSequoia({
  limitForPeriod: num('SEQUOIA_LIMIT_FOR_PERIOD'),
  limitRefreshPeriodMs: num('SEQUOIA_LIMIT_REFRESH_PERIOD_MS'),
  backoffBaseMs: num('SEQUOIA_BACKOFF_BASE_MS'),
  outboxPollMs: num('SEQUOIA_OUTBOX_POLL_MS'),
  activationMs: num('SEQUOIA_ACTIVATION_MS'),
  tenantMissing: env.SEQUOIA_TENANT_MISSING as SequoiaOptions['tenantMissing'],
  serviceVersion: env.SEQUOIA_SERVICE_VERSION as SequoiaOptions['serviceVersion'],
  strictBodies: flag('SEQUOIA_STRICT_BODIES'),
  auditOldestFirst: flag('SEQUOIA_AUDIT_OLDEST_FIRST'),
  redactSecretOnReplay: flag('SEQUOIA_REDACT_SECRET_ON_REPLAY'),
  streamRotateMs: num('SEQUOIA_STREAM_ROTATE_MS'),
  auditRefusals: flag('SEQUOIA_AUDIT_REFUSALS'),
  numericIds: flag('SEQUOIA_NUMERIC_IDS'),
});
const { close: _close, ...info } = s;
const out = process.argv[2];
if (out) writeFileSync(out, JSON.stringify(info, null, 2));
console.log(JSON.stringify(info, null, 2));
// Stops on Ctrl-C after closing streams, the outbox poller and both ports.
process.on('SIGINT', () => void s.close().then(() => process.exit(0)));
