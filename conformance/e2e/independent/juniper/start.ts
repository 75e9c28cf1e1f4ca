// Starts juniper by hand: `npx node conformance/e2e/independent/juniper/start.ts [ready-file.json]`.
// Prints (and writes to the ready file) the addresses, tenants and client credentials. JUNIPER_* switch on
// other legal choices: JUNIPER_PORT, JUNIPER_ALT_PORT, JUNIPER_RATE_LIMIT=n, JUNIPER_WINDOW_MS=ms,
// JUNIPER_ACTIVATION_MS=ms, JUNIPER_REDACT_KEY_ON_REPLAY=1, JUNIPER_DELIVERY_LOG_CURRENT_ONLY=1,
// JUNIPER_AUDIT_OLDEST_FIRST=1, JUNIPER_TOKEN_TTL=s, JUNIPER_REPLAY_REFUSALS=1, JUNIPER_UTC_OFFSET_MINUTES=n,
// JUNIPER_REPLICA_LAG_MS=ms, JUNIPER_AUDIT_MAX_PER_PAGE=n, JUNIPER_JOB_DELAY_MS=ms, JUNIPER_AUDIT_REFUSALS=1,
// JUNIPER_SSE_CRLF=1, JUNIPER_SSE_MULTILINE=1, JUNIPER_STREAM_MAX_MS=ms, JUNIPER_RELATIVE_LINKS=1,
// JUNIPER_OPENAPI_SERVER_VARIABLES=1, JUNIPER_CONNECTIONS_NEWEST_FIRST=1,
// JUNIPER_SSE_KIND_IN_DATA=1, JUNIPER_RETRY_SAME_DELIVERY=1.
import { writeFileSync } from 'node:fs';
import { startJuniper } from './server.ts';
import type { JuniperOptions } from './types.ts';

const env = process.env;
const num = (name: string): number | undefined => {
  const v = env[name];
  if (v === undefined || v === '') return undefined;
  const n = Number(v);
  if (!Number.isFinite(n) || n < 0) throw new Error(`${name} must be a number`);
  return n;
};
const flag = (name: string): boolean => env[name] === '1' || env[name] === 'true';

export function optionsFromEnv(): Partial<JuniperOptions> {
  const options: Partial<JuniperOptions> = {
    redactKeyOnReplay: flag('JUNIPER_REDACT_KEY_ON_REPLAY'),
    deliveryLogCurrentOnly: flag('JUNIPER_DELIVERY_LOG_CURRENT_ONLY'),
    auditOldestFirst: flag('JUNIPER_AUDIT_OLDEST_FIRST'),
  };
  const rate = num('JUNIPER_RATE_LIMIT');
  const windowMs = num('JUNIPER_WINDOW_MS');
  const activation = num('JUNIPER_ACTIVATION_MS');
  const ttl = num('JUNIPER_TOKEN_TTL');
  if (rate !== undefined) options.rateLimit = rate;
  if (windowMs !== undefined) options.windowMs = windowMs;
  if (activation !== undefined) options.activationDelayMs = activation;
  if (ttl !== undefined) options.tokenTtlSeconds = ttl;
  const offset = env.JUNIPER_UTC_OFFSET_MINUTES;
  if (offset !== undefined && offset !== '') options.utcOffsetMinutes = Number(offset);
  const lag = num('JUNIPER_REPLICA_LAG_MS');
  const perPage = num('JUNIPER_AUDIT_MAX_PER_PAGE');
  if (lag !== undefined) options.replicaLagMs = lag;
  if (perPage !== undefined) options.auditMaxPerPage = perPage;
  options.replayRefusals = flag('JUNIPER_REPLAY_REFUSALS');
  options.auditRefusals = flag('JUNIPER_AUDIT_REFUSALS');
  options.sseCrlf = flag('JUNIPER_SSE_CRLF');
  options.sseMultiline = flag('JUNIPER_SSE_MULTILINE');
  options.sseKindInData = flag('JUNIPER_SSE_KIND_IN_DATA');
  options.relativeLinks = flag('JUNIPER_RELATIVE_LINKS');
  options.openapiServerVariables = flag('JUNIPER_OPENAPI_SERVER_VARIABLES');
  options.connectionsNewestFirst = flag('JUNIPER_CONNECTIONS_NEWEST_FIRST');
  options.retrySameDelivery = flag('JUNIPER_RETRY_SAME_DELIVERY');
  const streamMax = num('JUNIPER_STREAM_MAX_MS');
  if (streamMax !== undefined) options.streamMaxMs = streamMax;
  const jobDelay = num('JUNIPER_JOB_DELAY_MS');
  if (jobDelay !== undefined) options.jobDelayMs = jobDelay;
  return options;
}

if (import.meta.main) {
  const juniper = await startJuniper(optionsFromEnv(), { port: num('JUNIPER_PORT'), altPort: num('JUNIPER_ALT_PORT') });
  const { close: _, ...info } = juniper;
  const text = JSON.stringify(info, null, 2);
  const readyFile = process.argv[2];
  if (readyFile) writeFileSync(readyFile, text, { mode: 0o600 });
  process.stdout.write(`juniper listening\n${text}\n`);
  const stop = () => void juniper.close().then(() => process.exit(0));
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
}
