// Starts pine by hand: `npx node conformance/e2e/independent/pine/start.ts [ready-file]`. Prints (or writes to
// the ready file) the addresses, tenants and client credentials as JSON. PINE_* variables switch on other
// legal choices (see README.md):
//   PINE_RATE_LIMIT, PINE_WINDOW_MS        calls per fixed window and its length (default 1000 per 10 000 ms)
//   PINE_ACTIVATION_MS                      how long a new connection stays pending (default 400)
//   PINE_STREAM_RETENTION                   stream messages kept per topic (default 1000)
//   PINE_SERVICE_VERSION_OPTIONAL=1         Service-Version optional on authenticated calls too
//   PINE_REDACT_KEY_ON_REPLAY=1             a replayed receiver registration leaves the signing key out
//   PINE_AUDIT_JCS=1                        the audit proof also names canonicalization RFC8785
//   PINE_TRUST_REQUEST_ID=1                 a client's own x-request-id becomes the call's id (Plug.RequestId)
//   PINE_DELIVERY_DELAY_MS                  deliveries picked up this much later (a job queue)
//   PINE_REPLAY_AS_NEW_DELIVERY=1           a replay is a new delivery with its own id
//   PINE_RATE_LIMIT_AFTER_AUTH=1            the rate limit counted after authentication only
import { writeFileSync } from 'node:fs';
import { startPine } from './server.ts';
import type { PineOptions } from './state.ts';

const env = process.env;
const num = (v: string | undefined) => (v === undefined || v === '' ? undefined : Number(v));

const options: PineOptions = {
  rateLimit: num(env.PINE_RATE_LIMIT),
  windowMs: num(env.PINE_WINDOW_MS),
  activationMs: num(env.PINE_ACTIVATION_MS),
  streamRetention: num(env.PINE_STREAM_RETENTION),
  serviceVersionOptional: env.PINE_SERVICE_VERSION_OPTIONAL === '1',
  redactKeyOnReplay: env.PINE_REDACT_KEY_ON_REPLAY === '1',
  auditJcs: env.PINE_AUDIT_JCS === '1',
  trustRequestId: env.PINE_TRUST_REQUEST_ID === '1',
  deliveryDelayMs: num(env.PINE_DELIVERY_DELAY_MS),
  replayAsNewDelivery: env.PINE_REPLAY_AS_NEW_DELIVERY === '1',
  rateLimitAfterAuth: env.PINE_RATE_LIMIT_AFTER_AUTH === '1',
};
for (const k of Object.keys(options) as (keyof PineOptions)[]) if (options[k] === undefined) delete options[k];

const target = await startPine(options);
const { close: _close, ...info } = target;
const text = JSON.stringify(info, null, 2);
const readyFile = process.argv[2];
if (readyFile !== undefined) writeFileSync(readyFile, text);
else console.log(text);

const stop = () => {
  target.close().then(() => process.exit(0));
};
process.on('SIGINT', stop);
process.on('SIGTERM', stop);
// The servers' sockets are the only thing keeping the process alive once the timers are unref'd.
setInterval(() => undefined, 60_000);
