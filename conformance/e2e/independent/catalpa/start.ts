// Starts catalpa by hand: `npx node conformance/e2e/independent/catalpa/start.ts [out.json]`. Prints (and
// optionally writes) the addresses and credentials; CATALPA_* variables switch on other legal choices.
import { writeFileSync } from 'node:fs';
import { startCatalpa } from './server.ts';

const env = process.env;
const num = (name: string): number | undefined => (env[name] ? Number(env[name]) : undefined);

const target = await startCatalpa(
  {
    rateLimit: num('CATALPA_RATE_LIMIT'),
    windowMs: num('CATALPA_WINDOW_MS'),
    tokenTtlSeconds: num('CATALPA_TOKEN_TTL_SECONDS'),
    activationMs: num('CATALPA_ACTIVATION_MS'),
    serviceVersionRequired: env.CATALPA_SERVICE_VERSION_REQUIRED === '1',
    auditOldestFirst: env.CATALPA_AUDIT_OLDEST_FIRST === '1',
    unknownConnectorDecision: env.CATALPA_UNKNOWN_CONNECTOR_DECISION === '1',
    resendNewMessageId: env.CATALPA_RESEND_NEW_MESSAGE_ID === '1',
    legacyNoDeliveryLog: env.CATALPA_LEGACY_NO_DELIVERY_LOG === '1',
    standardPayload: env.CATALPA_STANDARD_PAYLOAD === '1',
    productionDisabled: env.CATALPA_PRODUCTION_DISABLED === '1',
    bindIssuedKeys: env.CATALPA_BIND_ISSUED_KEYS === '1',
    standardSignature: env.CATALPA_STANDARD_SIGNATURE === '1',
    streamFromStart: env.CATALPA_STREAM_FROM_START === '1',
    keepAliveMs: num('CATALPA_KEEPALIVE_MS'),
  },
  { main: num('CATALPA_PORT'), alt: num('CATALPA_ALT_PORT') },
);
const { close: _close, ...info } = target;
const out = process.argv[2];
if (out) writeFileSync(out, JSON.stringify(info, null, 2));
console.log(JSON.stringify(info, null, 2));
process.on('SIGINT', () => target.close().then(() => process.exit(0)));
process.on('SIGTERM', () => target.close().then(() => process.exit(0)));
