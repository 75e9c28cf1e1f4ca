// Starts jacaranda by hand: `npx node conformance/e2e/independent/jacaranda/start.ts [out.json]`.
// JACARANDA_RATE_LIMIT / JACARANDA_WINDOW_MS / JACARANDA_PORT / JACARANDA_ALT_PORT / JACARANDA_ACTIVATION_MS
// switch on other choices; the handle (addresses, tenants, credentials) is printed and written to out.json.
import { writeFileSync } from 'node:fs';
import { startJacaranda } from './server.ts';
import { setTimeStyle } from './state.ts';

if (process.env.JACARANDA_TIME_STYLE) setTimeStyle(process.env.JACARANDA_TIME_STYLE);

const num = (name: string) => (process.env[name] ? Number(process.env[name]) : undefined);
const opts: Parameters<typeof startJacaranda>[0] = {};
const limit = num('JACARANDA_RATE_LIMIT');
if (limit !== undefined) opts.rateLimit = limit;
const windowMs = num('JACARANDA_WINDOW_MS');
if (windowMs !== undefined) opts.windowMs = windowMs;
const port = num('JACARANDA_PORT');
if (port !== undefined) opts.port = port;
const altPort = num('JACARANDA_ALT_PORT');
if (altPort !== undefined) opts.altPort = altPort;
const seqBase = num('JACARANDA_STREAM_SEQ_BASE');
if (seqBase !== undefined) opts.streamSeqBase = seqBase;
const streamMax = num('JACARANDA_STREAM_MAX_MS');
if (streamMax !== undefined) opts.streamMaxMs = streamMax;
const activation = num('JACARANDA_ACTIVATION_MS');
if (activation !== undefined) opts.activationMs = activation;

const flag = (name: string) => process.env[name] === '1';
opts.choices = {
  discardUnknown: flag('JACARANDA_DISCARD_UNKNOWN'),
  auditProofs: flag('JACARANDA_AUDIT_PROOFS'),
  sigP1363: flag('JACARANDA_SIG_P1363'),
  replayRefusals: flag('JACARANDA_REPLAY_REFUSALS'),
  redactKeyOnReplay: flag('JACARANDA_REDACT_KEY_ON_REPLAY'),
  upperEvents: flag('JACARANDA_UPPER_EVENTS'),
  omitEmpty: flag('JACARANDA_OMIT_EMPTY'),
  tokenPostOnly: flag('JACARANDA_TOKEN_POST_ONLY'),
  tenantLimits: flag('JACARANDA_TENANT_LIMITS'),
  strictQuery: flag('JACARANDA_STRICT_QUERY'),
  deliveryPageSize: num('JACARANDA_DELIVERY_PAGE_SIZE') ?? 20,
};

const handle = await startJacaranda(opts);
const { close: _close, ...info } = handle;
console.log(JSON.stringify(info, null, 2));
if (process.argv[2]) writeFileSync(process.argv[2], JSON.stringify(info, null, 2));
process.on('SIGINT', () => void handle.close().then(() => process.exit(0)));
process.on('SIGTERM', () => void handle.close().then(() => process.exit(0)));
