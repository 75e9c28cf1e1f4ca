// Starts beech by hand: `npx node conformance/e2e/independent/beech/start.ts [/tmp/beech.json]` writes the
// handle (addresses, tenants, client credentials) to the file given, or prints it. BEECH_* switch choices.
import { writeFileSync } from 'node:fs';
import { startBeech } from './server.ts';

const env = process.env;
const handle = await startBeech({
  rateLimit: env.BEECH_RATE_LIMIT === undefined ? undefined : Number(env.BEECH_RATE_LIMIT),
  windowMs: env.BEECH_WINDOW_MS === undefined ? undefined : Number(env.BEECH_WINDOW_MS),
  maxRetries: env.BEECH_MAX_RETRIES === undefined ? undefined : Number(env.BEECH_MAX_RETRIES),
  redactKeyOnReplay: env.BEECH_REDACT_KEY_ON_REPLAY === '1',
  utcOffset: env.BEECH_UTC_OFFSET === undefined ? undefined : Number(env.BEECH_UTC_OFFSET),
  oldestFirst: env.BEECH_OLDEST_FIRST === '1',
  noLinkHeader: env.BEECH_NO_LINK_HEADER === '1',
  seedDemo: env.BEECH_SEED_DEMO === '1',
  serviceVersionRequired: env.BEECH_SERVICE_VERSION_REQUIRED === '1',
});
const { close: _close, ...info } = handle;
const out = process.argv[2];
if (out === undefined) console.log(JSON.stringify(info, null, 2));
else writeFileSync(out, JSON.stringify(info, null, 2));
console.log(`beech listening on ${handle.baseUrl} and ${handle.altBaseUrl}`);
