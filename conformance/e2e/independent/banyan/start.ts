// Starts banyan by hand: `npx node conformance/e2e/independent/banyan/start.ts [handle.json]`; prints (and
// writes) the addresses, tenants and client credentials. BANYAN_* variables switch on other legal choices.
import { writeFileSync } from 'node:fs';
import { startBanyan } from './server.ts';

const env = process.env;
const num = (v: string | undefined) => (v ? Number(v) : undefined);
const handle = await startBanyan({
  ...(env.BANYAN_RATE_LIMIT ? { rateLimit: Number(env.BANYAN_RATE_LIMIT) } : {}),
  ...(env.BANYAN_WINDOW_MS ? { windowMs: Number(env.BANYAN_WINDOW_MS) } : {}),
  ...(env.BANYAN_PROVISION_MS ? { provisionMs: Number(env.BANYAN_PROVISION_MS) } : {}),
  ...(env.BANYAN_RETRY_BASE_MS ? { retryBaseMs: Number(env.BANYAN_RETRY_BASE_MS) } : {}),
  ...(env.BANYAN_SERVICE_VERSION_REQUIRED === '1' ? { serviceVersionRequired: true } : {}),
  ...(env.BANYAN_AUDIT_LINK_ONLY === '1' ? { auditLinkOnly: true } : {}),
  ...(env.BANYAN_LENIENT_SERVICE_VERSION === '1' ? { lenientServiceVersion: true } : {}),
  ...(env.BANYAN_PROJECTION_LAG_MS ? { projectionLagMs: Number(env.BANYAN_PROJECTION_LAG_MS) } : {}),
  ...(env.BANYAN_STREAM_MAX_MESSAGES ? { streamMaxMessages: Number(env.BANYAN_STREAM_MAX_MESSAGES) } : {}),
  ...(env.BANYAN_STREAM_MAX_MS ? { streamMaxMs: Number(env.BANYAN_STREAM_MAX_MS) } : {}),
  ...(env.BANYAN_STRICT_QUERY === '1' ? { strictQuery: true } : {}),
  ...(env.BANYAN_STREAM_UNNAMED === '1' ? { streamUnnamed: true } : {}),
  port: num(env.BANYAN_PORT) ?? 0,
  altPort: num(env.BANYAN_ALT_PORT) ?? 0,
});
const { close: _close, ...shown } = handle;
const text = JSON.stringify(shown, null, 2);
if (process.argv[2]) writeFileSync(process.argv[2], text);
console.log(text);
