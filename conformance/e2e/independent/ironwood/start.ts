// Starts ironwood by hand: `npx node conformance/e2e/independent/ironwood/start.ts [/tmp/ironwood.json]`.
// Prints (and writes, when a file is named) the addresses, tenants and client credentials. IRONWOOD_*
// variables switch its options: IRONWOOD_RATE_LIMIT=n, IRONWOOD_WINDOW_MS=ms, IRONWOOD_TOKEN_LIFETIME_S=s,
// IRONWOOD_PROVISIONING_MS=ms, IRONWOOD_AUDIT_MAX_PAGE=n, IRONWOOD_UNKNOWN_CONNECTOR_404=1,
// IRONWOOD_EVENT_GRID=1, IRONWOOD_DELIVERY_PAGE=n.
import { writeFileSync } from 'node:fs';
import { startIronwood } from './server.ts';

const num = (name: string): number | undefined => {
  const v = process.env[name];
  return v === undefined || v === '' ? undefined : Number(v);
};

const d = await startIronwood({
  rateLimit: num('IRONWOOD_RATE_LIMIT'),
  windowMs: num('IRONWOOD_WINDOW_MS'),
  tokenLifetimeS: num('IRONWOOD_TOKEN_LIFETIME_S'),
  provisioningMs: num('IRONWOOD_PROVISIONING_MS'),
  auditMaxPage: num('IRONWOOD_AUDIT_MAX_PAGE'),
  unknownConnector404: process.env.IRONWOOD_UNKNOWN_CONNECTOR_404 === '1',
  eventGrid: process.env.IRONWOOD_EVENT_GRID === '1',
  deliveryPage: num('IRONWOOD_DELIVERY_PAGE'),
});
const { close: _close, ...target } = d;
const text = JSON.stringify(target, null, 2);
console.log(text);
const file = process.argv[2];
if (file) writeFileSync(file, text);
process.on('SIGINT', () => {
  void d.close().then(() => process.exit(0));
});
process.on('SIGTERM', () => {
  void d.close().then(() => process.exit(0));
});
