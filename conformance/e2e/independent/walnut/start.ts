// Starts walnut by hand and prints its addresses as JSON (for the kit's CLI). WALNUT_* variables
// switch on other legal choices.
import { writeFileSync } from 'node:fs';
import { startWalnut } from './server.ts';

const env = process.env;
const walnut = await startWalnut({
  ...(env.WALNUT_RATE_LIMIT ? { rateLimit: Number(env.WALNUT_RATE_LIMIT) } : {}),
  ...(env.WALNUT_WINDOW_MS ? { windowMs: Number(env.WALNUT_WINDOW_MS) } : {}),
  ...(env.WALNUT_TOKEN_TTL ? { tokenTtlSeconds: Number(env.WALNUT_TOKEN_TTL) } : {}),
  ...(env.WALNUT_CHECKPOINT_EVERY ? { checkpointEvery: Number(env.WALNUT_CHECKPOINT_EVERY) } : {}),
  ...(env.WALNUT_AUDIT_MAX_LIMIT ? { auditMaxLimit: Number(env.WALNUT_AUDIT_MAX_LIMIT) } : {}),
  ...(env.WALNUT_DELIVERY_MAX_LIMIT ? { deliveryMaxLimit: Number(env.WALNUT_DELIVERY_MAX_LIMIT) } : {}),
  ...(env.WALNUT_STREAM_MAX_MS ? { streamMaxMs: Number(env.WALNUT_STREAM_MAX_MS) } : {}),
  ...(env.WALNUT_HEARTBEAT_MS ? { heartbeatMs: Number(env.WALNUT_HEARTBEAT_MS) } : {}),
  ...(env.WALNUT_UTC_OFFSET_MINUTES ? { utcOffsetMinutes: Number(env.WALNUT_UTC_OFFSET_MINUTES) } : {}),
  redactKeyOnReplay: env.WALNUT_REDACT_KEY_ON_REPLAY === '1',
  serviceVersionRequired: env.WALNUT_SERVICE_VERSION_REQUIRED === '1',
});
const { close: _close, ...info } = walnut;
const out = process.argv[2];
if (out) writeFileSync(out, JSON.stringify(info));
process.stdout.write(`${JSON.stringify(info)}\n`);
