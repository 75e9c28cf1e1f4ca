// Starts alder by hand: `npx node conformance/e2e/independent/alder/start.ts [ready-file.json]`.
// The ready file (mode 600, or stdout without one) carries the addresses, tenants and client secret.
// ALDER_* variables switch on other legal choices, to try the kit against them:
//   ALDER_RATE_LIMIT=n ALDER_WINDOW_MS=ms   token bucket of n calls refilled over ms (default 600 / 60000)
//   ALDER_ACTIVATION_DELAY_MS=ms            how long a connection stays `requested` (default 300)
//   ALDER_SERVICE_VERSION_REQUIRED=1        refuse calls without Service-Version (400 invalid_request)
//   ALDER_AUDIT_NEWEST_FIRST=1              list the audit log newest first
//   ALDER_PORT=n ALDER_ALT_PORT=n           fixed ports (default: any free port) on 127.0.0.1
import { writeFileSync } from 'node:fs';
import { startAlder } from './server.ts';

if (process.argv.includes('--help')) {
  console.log('usage: start.ts [ready-file.json]  (ALDER_* variables: see the head of start.ts)');
  process.exit(0);
}

const env = process.env;
const num = (v: string | undefined) => (v ? Number(v) : undefined);
const target = await startAlder({
  rateLimit: num(env.ALDER_RATE_LIMIT),
  windowMs: num(env.ALDER_WINDOW_MS),
  activationDelayMs: num(env.ALDER_ACTIVATION_DELAY_MS),
  serviceVersionRequired: env.ALDER_SERVICE_VERSION_REQUIRED === '1',
  auditNewestFirst: env.ALDER_AUDIT_NEWEST_FIRST === '1',
  port: num(env.ALDER_PORT),
  altPort: num(env.ALDER_ALT_PORT),
});
const { close: _close, ...info } = target;
const file = process.argv[2];
if (file) writeFileSync(file, JSON.stringify(info, null, 2), { mode: 0o600 });
else console.log(JSON.stringify(info, null, 2));
console.error(`alder listening on ${target.baseUrl} and ${target.altBaseUrl} (Ctrl-C stops it)`);

// A signal closes both listeners, open streams and pending delivery timers before exiting.
const stop = () => void target.close().then(() => process.exit(0));
process.on('SIGINT', stop);
process.on('SIGTERM', stop);
