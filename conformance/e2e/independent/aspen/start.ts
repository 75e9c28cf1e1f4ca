// Starts aspen by hand: `npx node conformance/e2e/independent/aspen/start.ts [ready-file]`. Writes the
// addresses, tenants and client id to the ready file (the client secret goes to it too, mode 0600, never
// to stdout). ASPEN_* variables switch on other legal choices (`--help` lists them).
import { writeFileSync } from 'node:fs';
import { startAspen } from './server.ts';

const HELP = `usage: npx node conformance/e2e/independent/aspen/start.ts [ready-file]
  ASPEN_PORT, ASPEN_ALT_PORT            listen ports (default: any free port), always 127.0.0.1
  ASPEN_RATE_LIMIT, ASPEN_WINDOW_MS     calls per sliding window per token and tenant (600 / 60000)
  ASPEN_TOKEN_TTL_S                     access token lifetime in seconds (300)
  ASPEN_ACTIVATION_DELAY_MS             delay of the review job: pending_review -> active (1000)
  ASPEN_HEARTBEAT_MS                    stream heartbeat comment interval (15000)
  ASPEN_CLIENT_SECRET                   fixed client secret (default: random per start)
  ASPEN_VERSION_EVERYWHERE=1            Service-Version required on the public endpoints too
  ASPEN_LAST_EVENT_ID_WINS=1            Last-Event-ID wins over ?cursor when both are sent
  ASPEN_PRODUCTION_CRITICAL_DENIED=1    critical capabilities not released for production
  ASPEN_UNKNOWN_CONNECTOR_DECIDED=1     unknown connector on POST /capabilities: "not allowed", not 404
  ASPEN_STORE_REFUSALS=1                a keyed creation refused 409 capability_denied / 404 replays that refusal
  ASPEN_REFUSE_KEY_ON_READS=1           an Idempotency-Key on a call that takes none: 400
`;
if (process.argv.includes('--help')) {
  process.stdout.write(HELP);
  process.exit(0);
}

const env = process.env;
const num = (v: string | undefined) => (v === undefined || v === '' ? undefined : Number(v));

const d = await startAspen({
  port: num(env.ASPEN_PORT),
  altPort: num(env.ASPEN_ALT_PORT),
  rateLimit: num(env.ASPEN_RATE_LIMIT),
  windowMs: num(env.ASPEN_WINDOW_MS),
  tokenTtlSeconds: num(env.ASPEN_TOKEN_TTL_S),
  activationDelayMs: num(env.ASPEN_ACTIVATION_DELAY_MS),
  heartbeatMs: num(env.ASPEN_HEARTBEAT_MS),
  clientSecret: env.ASPEN_CLIENT_SECRET,
  versionEverywhere: env.ASPEN_VERSION_EVERYWHERE === '1',
  lastEventIdWins: env.ASPEN_LAST_EVENT_ID_WINS === '1',
  productionCriticalDenied: env.ASPEN_PRODUCTION_CRITICAL_DENIED === '1',
  unknownConnectorDecided: env.ASPEN_UNKNOWN_CONNECTOR_DECIDED === '1',
  storeRefusals: env.ASPEN_STORE_REFUSALS === '1',
  refuseKeyOnReads: env.ASPEN_REFUSE_KEY_ON_READS === '1',
});
const { close: _close, clientSecret, ...shown } = d;
const file = process.argv[2];
if (file !== undefined) writeFileSync(file, JSON.stringify({ ...shown, clientSecret }, null, 2), { mode: 0o600 });
process.stdout.write(`aspen listening: ${JSON.stringify(shown)}\n`);
const stop = () => void d.close().then(() => process.exit(0));
process.on('SIGINT', stop);
process.on('SIGTERM', stop);
