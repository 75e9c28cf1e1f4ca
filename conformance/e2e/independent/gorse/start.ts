// Start gorse by hand: `npx node conformance/e2e/independent/gorse/start.ts [handle.json]`.
// GORSE_BUCKET=n GORSE_REFILL=n/s GORSE_LIVE_MS=ms GORSE_TOKEN_TTL=s switch to other legal choices.
import { writeFileSync } from 'node:fs';
import { startGorse } from './server.ts';

const num = (v: string | undefined) => (v ? Number(v) : undefined);
const g = await startGorse({
  bucketSize: num(process.env.GORSE_BUCKET),
  refillPerSecond: num(process.env.GORSE_REFILL),
  liveAfterMs: num(process.env.GORSE_LIVE_MS),
  tokenLifetimeS: num(process.env.GORSE_TOKEN_TTL),
  streamMaxMs: num(process.env.GORSE_STREAM_MAX_MS),
  redactSecretOnReplay: process.env.GORSE_REDACT_SECRET === '1',
  suspendAfterMs: num(process.env.GORSE_SUSPEND_MS),
  strictQuery: process.env.GORSE_STRICT_QUERY === '1',
  strictContentType: process.env.GORSE_STRICT_CONTENT_TYPE === '1',
  unknownConnector404: process.env.GORSE_UNKNOWN_CONNECTOR_404 === '1',
  duplicateDeliveries: process.env.GORSE_DUPLICATE_DELIVERIES === '1',
});
const { close: _c, ...handle } = g;
const out = process.argv[2];
if (out) writeFileSync(out, JSON.stringify(handle, null, 2));
console.log(JSON.stringify(handle, null, 2));
