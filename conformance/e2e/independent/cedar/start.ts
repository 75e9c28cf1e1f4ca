// Starts cedar and prints its addresses as JSON (for running the kit's CLI against it by hand).
import { writeFileSync } from 'node:fs';
import { startCedar } from './server.ts';

const env = process.env;
const cedar = await startCedar({
  redactKeyOnReplay: env.CEDAR_REDACT_KEY_ON_REPLAY === '1',
  tenantStreams: env.CEDAR_TENANT_STREAMS === '1',
  auditOldestFirst: env.CEDAR_AUDIT_OLDEST_FIRST === '1',
  ...(env.CEDAR_RATE_LIMIT
    ? { rateLimit: Number(env.CEDAR_RATE_LIMIT), windowMs: Number(env.CEDAR_WINDOW_MS ?? 60000) }
    : {}),
  productionCriticalDenied: env.CEDAR_PRODUCTION_CRITICAL_DENIED === '1',
  relayDelayMs: Number(env.CEDAR_RELAY_DELAY_MS ?? 0),
  linksFromHost: env.CEDAR_LINKS_FROM_HOST === '1',
  serviceVersionRequired: env.CEDAR_SERVICE_VERSION_REQUIRED === '1',
  ...(env.CEDAR_MAX_REQUESTS_PER_SOCKET ? { maxRequestsPerSocket: Number(env.CEDAR_MAX_REQUESTS_PER_SOCKET) } : {}),
});
const { close: _close, ...info } = cedar;
const out = process.argv[2];
if (out) writeFileSync(out, JSON.stringify(info));
process.stdout.write(`${JSON.stringify(info)}\n`);
