// Starts hemlock by hand: `npx node conformance/e2e/independent/hemlock/start.ts [/tmp/hemlock.json]`.
// Prints (and optionally writes) the addresses, tenants and client credentials. HEMLOCK_* variables turn on
// other legal choices: HEMLOCK_RATE_LIMIT=n HEMLOCK_WINDOW_MS=ms (bucket size and drain time),
// HEMLOCK_ACTIVATION_MS=ms, HEMLOCK_SERVICE_VERSION_REQUIRED=1, HEMLOCK_REDACT_KEY_ON_REPLAY=1,
// HEMLOCK_SUSPEND_AFTER_MS=ms (live connections are suspended after that long), HEMLOCK_TOKEN_TTL_S=s,
// HEMLOCK_DELIVERY_DELAY_MS=ms (webhook jobs wait in a queue that long), HEMLOCK_REPLAY_REFUSALS=1 (a 404 or
// 409 reached after validation is kept under its Idempotency-Key and replayed), HEMLOCK_STREAM_FROM_START=1
// (a stream opened without a resumption point starts with the whole retained backlog).
import { writeFileSync } from 'node:fs';
import type { HemlockOptions } from './server.ts';
import { startHemlock } from './server.ts';

const env = process.env;
const num = (v: string | undefined): number | undefined => (v === undefined || v === '' ? undefined : Number(v));
const options: HemlockOptions = {};
const rateLimit = num(env.HEMLOCK_RATE_LIMIT);
const windowMs = num(env.HEMLOCK_WINDOW_MS);
const activationMs = num(env.HEMLOCK_ACTIVATION_MS);
const suspendAfterMs = num(env.HEMLOCK_SUSPEND_AFTER_MS);
if (rateLimit !== undefined) options.rateLimit = rateLimit;
if (windowMs !== undefined) options.windowMs = windowMs;
if (activationMs !== undefined) options.activationMs = activationMs;
if (suspendAfterMs !== undefined) options.suspendAfterMs = suspendAfterMs;
const tokenTtlS = num(env.HEMLOCK_TOKEN_TTL_S);
const deliveryDelayMs = num(env.HEMLOCK_DELIVERY_DELAY_MS);
if (tokenTtlS !== undefined) options.tokenTtlS = tokenTtlS;
if (deliveryDelayMs !== undefined) options.deliveryDelayMs = deliveryDelayMs;
options.serviceVersionRequired = env.HEMLOCK_SERVICE_VERSION_REQUIRED === '1';
options.redactKeyOnReplay = env.HEMLOCK_REDACT_KEY_ON_REPLAY === '1';
options.replayRefusals = env.HEMLOCK_REPLAY_REFUSALS === '1';
options.streamFromStart = env.HEMLOCK_STREAM_FROM_START === '1';

const d = await startHemlock(options);
const info = {
  baseUrl: d.baseUrl,
  altBaseUrl: d.altBaseUrl,
  tenant: d.tenant,
  otherTenant: d.otherTenant,
  foreignTenant: d.foreignTenant,
  clientId: d.clientId,
  clientSecret: d.clientSecret,
  tokenUrl: d.tokenUrl,
};
const file = process.argv[2];
if (file) writeFileSync(file, `${JSON.stringify(info, null, 2)}\n`);
console.log(JSON.stringify(info, null, 2));
// Ready to paste for a kit run by hand (secrets through the environment, never on the command line).
console.log(
  [
    `export NCS_BASE_URL=${d.baseUrl} NCS_ALT_BASE_URL=${d.altBaseUrl}`,
    `export NCS_TENANT=${d.tenant} NCS_OTHER_TENANT=${d.otherTenant} NCS_FOREIGN_TENANT=${d.foreignTenant}`,
    `export NCS_CLIENT_ID=${d.clientId} NCS_CLIENT_SECRET=${d.clientSecret} NCS_TOKEN_URL=${d.tokenUrl}`,
    'npm run -s ncs -- conformance run --profile full \\',
    '  --deployment-profile conformance/e2e/independent/hemlock/hemlock-profile.json',
  ].join('\n'),
);
const stop = (): void => {
  d.close().then(() => process.exit(0));
};
process.on('SIGINT', stop);
process.on('SIGTERM', stop);
