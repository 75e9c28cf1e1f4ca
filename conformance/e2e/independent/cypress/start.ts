// Starts cypress by hand: `npx node conformance/e2e/independent/cypress/start.ts [ready-file.json]`.
// CYPRESS_* variables switch on other legal choices.
import { writeFileSync } from 'node:fs';
import { startCypress } from './server.ts';

const env = process.env;
const num = (v: string | undefined) => (v ? Number(v) : undefined);
const target = await startCypress(
  {
    rateLimit: num(env.CYPRESS_RATE_LIMIT),
    windowMs: num(env.CYPRESS_WINDOW_MS),
    tokenTtlSeconds: num(env.CYPRESS_TOKEN_TTL),
    retryScale: num(env.CYPRESS_RETRY_SCALE),
    redactKeyOnReplay: env.CYPRESS_REDACT_KEY_ON_REPLAY === '1',
    activationMs: num(env.CYPRESS_ACTIVATION_MS),
    timeZone: env.CYPRESS_TIME_ZONE,
    integerIds: env.CYPRESS_INTEGER_IDS === '1',
    deliveryDelayMs: num(env.CYPRESS_DELIVERY_DELAY_MS),
    streamMaxMs: num(env.CYPRESS_STREAM_MAX_MS),
    formBodies: env.CYPRESS_FORM_BODIES === '1',
    auditNextPageField: env.CYPRESS_AUDIT_NEXT_PAGE_FIELD === '1',
    keysPerClient: env.CYPRESS_KEYS_PER_CLIENT === '1',
  },
  [num(env.CYPRESS_PORT) ?? 0, num(env.CYPRESS_ALT_PORT) ?? 0],
);
const { close: _close, ...ready } = target;
const file = process.argv[2];
if (file) writeFileSync(file, JSON.stringify(ready, null, 2));
console.log(JSON.stringify(ready, null, 2));
process.on('SIGINT', () => void target.close().then(() => process.exit(0)));
process.on('SIGTERM', () => void target.close().then(() => process.exit(0)));
