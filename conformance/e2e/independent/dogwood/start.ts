// Starts dogwood by hand and prints (and optionally writes) its addresses and credentials:
//
//   npx node conformance/e2e/independent/dogwood/start.ts [/tmp/dogwood.json]
//
// Then judge it with the kit (secrets through the environment, never on the command line):
//
//   export NCS_BASE_URL=… NCS_ALT_BASE_URL=… NCS_TENANT=acme-roastery NCS_OTHER_TENANT=acme-bakery \
//          NCS_FOREIGN_TENANT=globex-diner NCS_CLIENT_ID=… NCS_CLIENT_SECRET=…
//   npm run -s ncs -- conformance run --profile full \
//     --deployment-profile conformance/e2e/independent/dogwood/dogwood-profile.json
//
// DOGWOOD_* variables switch on dogwood's other legal choices (see README.md):
//   DOGWOOD_RATE_LIMIT=n DOGWOOD_WINDOW_MS=ms   Kong's fixed window (default 600 calls / 60 s)
//   DOGWOOD_TOKEN_TTL=s                          access-token lifetime (default 300 s)
//   DOGWOOD_BACKOFF_MS=ms                        BullMQ backoff base (default 1000 ms, doubled per attempt)
//   DOGWOOD_ACTIVATION_MS=ms                     pending -> active delay (default 400 ms)
//   DOGWOOD_SERVICE_VERSION_REQUIRED=1           Service-Version mandatory on authenticated calls
//   DOGWOOD_FORBID_UNKNOWN=1                     unknown body fields refused (forbidNonWhitelisted)
//   DOGWOOD_STRING_IDS=1 | receivers             ids as strings (all, or receiver ids only)
//   DOGWOOD_NO_DELIVERY_HEADER=1                 no X-Dogwood-Delivery header on deliveries
//   DOGWOOD_REPLAY_REFUSALS=1                    404/409 refusals kept and replayed under their key
//   DOGWOOD_LIMIT_PUBLIC=1                       public routes counted per client IP too
//   DOGWOOD_AUDIT_PAGES=1                        audit log paged by page/pageSize
//   DOGWOOD_UNTYPED_STREAM=1                     stream messages without an event: line
//   DOGWOOD_HEARTBEAT_MS=ms                      numbered system.heartbeat messages
import { writeFileSync } from 'node:fs';
import { startDogwood } from './server.ts';

const env = process.env;
const num = (v: string | undefined): number | undefined => (v ? Number(v) : undefined);
const d = await startDogwood({
  rateLimit: num(env.DOGWOOD_RATE_LIMIT),
  windowMs: num(env.DOGWOOD_WINDOW_MS),
  tokenTtlSec: num(env.DOGWOOD_TOKEN_TTL),
  backoffMs: num(env.DOGWOOD_BACKOFF_MS),
  activationMs: num(env.DOGWOOD_ACTIVATION_MS),
  serviceVersionRequired: env.DOGWOOD_SERVICE_VERSION_REQUIRED === '1',
  forbidUnknown: env.DOGWOOD_FORBID_UNKNOWN === '1',
  stringIds: env.DOGWOOD_STRING_IDS === 'receivers' ? 'receivers' : env.DOGWOOD_STRING_IDS === '1',
  noDeliveryHeader: env.DOGWOOD_NO_DELIVERY_HEADER === '1',
  replayRefusals: env.DOGWOOD_REPLAY_REFUSALS === '1',
  limitPublic: env.DOGWOOD_LIMIT_PUBLIC === '1',
  auditPages: env.DOGWOOD_AUDIT_PAGES === '1',
  untypedStream: env.DOGWOOD_UNTYPED_STREAM === '1',
  heartbeatMs: num(env.DOGWOOD_HEARTBEAT_MS),
});
const { close: _close, ...info } = d;
const text = JSON.stringify(info, null, 2);
console.log(text);
if (process.argv[2]) writeFileSync(process.argv[2], text);
const stop = (): void => void d.close().then(() => process.exit(0));
process.on('SIGINT', stop);
process.on('SIGTERM', stop);
