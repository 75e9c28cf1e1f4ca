// Start tupelo by hand: npx node conformance/e2e/independent/tupelo/start.ts [target.json]
// TUPELO_RATE_LIMIT, TUPELO_WINDOW_MS, TUPELO_TOKEN_LIFETIME_S, TUPELO_BACKOFF_MS (comma list),
// TUPELO_ACTIVATION_MS, TUPELO_REPLAY_REFUSALS=1, TUPELO_STREAM_FROM_START=1, TUPELO_DELIVER_TWICE=1,
// TUPELO_RETRIGGER_SAME_ID=1, TUPELO_DELIVERY_DELAY_MS, TUPELO_VERSION_REQUIRED=1, TUPELO_AUDIT_OLDEST_FIRST=1 switch on other legal choices.
import { writeFileSync } from 'node:fs';
import { startTupelo } from './server.ts';

const n = (v: string | undefined) => (v ? Number(v) : undefined);
const t = await startTupelo({
  rateLimit: n(process.env.TUPELO_RATE_LIMIT),
  windowMs: n(process.env.TUPELO_WINDOW_MS),
  tokenLifetimeS: n(process.env.TUPELO_TOKEN_LIFETIME_S),
  backoffMs: process.env.TUPELO_BACKOFF_MS?.split(',').map(Number),
  versionRequired: process.env.TUPELO_VERSION_REQUIRED === '1',
  auditOldestFirst: process.env.TUPELO_AUDIT_OLDEST_FIRST === '1',
  activationMs: n(process.env.TUPELO_ACTIVATION_MS),
  replayRefusals: process.env.TUPELO_REPLAY_REFUSALS === '1',
  streamFromStart: process.env.TUPELO_STREAM_FROM_START === '1',
  deliverTwice: process.env.TUPELO_DELIVER_TWICE === '1',
  retriggerSameId: process.env.TUPELO_RETRIGGER_SAME_ID === '1',
  deliveryDelayMs: n(process.env.TUPELO_DELIVERY_DELAY_MS),
});
const { close: _c, ...info } = t;
const out = process.argv[2];
if (out) writeFileSync(out, JSON.stringify(info, null, 2));
console.log(JSON.stringify(info, null, 2));
process.on('SIGINT', () => void t.close().then(() => process.exit(0)));
