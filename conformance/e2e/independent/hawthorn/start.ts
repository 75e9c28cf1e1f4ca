// Starts hawthorn by hand: `npx node conformance/e2e/independent/hawthorn/start.ts [target.json]`.
// Prints (and optionally writes) the addresses and credentials; HAWTHORN_* variables switch on other choices:
// HAWTHORN_RATE_LIMIT, HAWTHORN_WINDOW_MS, HAWTHORN_TOKEN_TTL_S, HAWTHORN_RETRY_DELAY_MS,
// HAWTHORN_ACTIVATION_MS, HAWTHORN_CHECKPOINT_EVERY, HAWTHORN_KEEP_ALIVE_MS, HAWTHORN_STREAM_MAX_MS,
// HAWTHORN_RELAY_DELAY_MS, HAWTHORN_REQUIRE_SERVICE_VERSION=1, HAWTHORN_TOKEN_POST_ONLY=1, HAWTHORN_STRICT_QUERY=1,
// HAWTHORN_REPLAY_KEY=marker|omit|mask|repeat, HAWTHORN_AUDIT_PROOF_LABELS=1,
// HAWTHORN_TIME_STYLE=offset-nanos, HAWTHORN_SORT_CAPABILITIES=1, HAWTHORN_KEY_IN_HEADER=1.
import { writeFileSync } from 'node:fs';
import { startHawthorn } from './server.ts';
import { setTimeStyle } from './util.ts';

if (process.env.HAWTHORN_TIME_STYLE === 'offset-nanos') setTimeStyle('offset-nanos');

const num = (name: string) => (process.env[name] ? Number(process.env[name]) : undefined);
const target = await startHawthorn({
  rateLimit: num('HAWTHORN_RATE_LIMIT'),
  windowMs: num('HAWTHORN_WINDOW_MS'),
  tokenTtlSeconds: num('HAWTHORN_TOKEN_TTL_S'),
  retryDelayMs: num('HAWTHORN_RETRY_DELAY_MS'),
  activationMs: num('HAWTHORN_ACTIVATION_MS'),
  checkpointEvery: num('HAWTHORN_CHECKPOINT_EVERY'),
  keepAliveMs: num('HAWTHORN_KEEP_ALIVE_MS'),
  streamMaxMs: num('HAWTHORN_STREAM_MAX_MS'),
  requireServiceVersion: process.env.HAWTHORN_REQUIRE_SERVICE_VERSION === '1',
  relayDelayMs: num('HAWTHORN_RELAY_DELAY_MS'),
  tokenPostOnly: process.env.HAWTHORN_TOKEN_POST_ONLY === '1',
  strictQuery: process.env.HAWTHORN_STRICT_QUERY === '1',
  sortCapabilities: process.env.HAWTHORN_SORT_CAPABILITIES === '1',
  keyInHeader: process.env.HAWTHORN_KEY_IN_HEADER === '1',
  auditProofLabels: process.env.HAWTHORN_AUDIT_PROOF_LABELS === '1',
  replayKey: process.env.HAWTHORN_REPLAY_KEY as 'marker' | 'omit' | 'mask' | 'repeat' | undefined,
});
const { close: _close, ...printable } = target;
const out = process.argv[2];
if (out) writeFileSync(out, JSON.stringify(printable, null, 2));
console.log(JSON.stringify(printable, null, 2));
process.on('SIGINT', () => void target.close().then(() => process.exit(0)));
process.on('SIGTERM', () => void target.close().then(() => process.exit(0)));
