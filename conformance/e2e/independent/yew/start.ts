// Starts yew by hand: `npx node conformance/e2e/independent/yew/start.ts [ready-file.json]`.
// YEW_RATE_LIMIT, YEW_WINDOW_MS, YEW_ACTIVATION_MS, YEW_TOKEN_TTL_SEC, YEW_PORT, YEW_ALT_PORT set its numbers;
// YEW_CLOCK_OFFSET_MINUTES=n, YEW_AUDIT_MAX_PAGE=n, YEW_DELIVERY_PAGE_SIZE=n, YEW_MAX_STREAM_MS=ms, YEW_SERVICE_VERSION_REQUIRED=1, YEW_PROBLEM_JSON=1, YEW_ODATA_CONTENT_TYPE=1,
// YEW_AUDIT_OLDEST_FIRST=1, YEW_CLOUDEVENTS_BINARY=1,
// YEW_REDACT_KEY_ON_REPLAY=1 switch on its other legal choices.
import { writeFileSync } from 'node:fs';
import { startYew } from './server.ts';

const num = (name: string) => (process.env[name] ? Number(process.env[name]) : undefined);
const flag = (name: string) => process.env[name] === '1';
const yew = await startYew({
  rateLimit: num('YEW_RATE_LIMIT'),
  windowMs: num('YEW_WINDOW_MS'),
  activationMs: num('YEW_ACTIVATION_MS'),
  tokenTtlSec: num('YEW_TOKEN_TTL_SEC'),
  port: num('YEW_PORT'),
  altPort: num('YEW_ALT_PORT'),
  clockOffsetMinutes: num('YEW_CLOCK_OFFSET_MINUTES'),
  auditMaxPage: num('YEW_AUDIT_MAX_PAGE'),
  serviceVersionRequired: flag('YEW_SERVICE_VERSION_REQUIRED'),
  problemJson: flag('YEW_PROBLEM_JSON'),
  maxStreamMs: num('YEW_MAX_STREAM_MS'),
  odataContentType: flag('YEW_ODATA_CONTENT_TYPE'),
  auditOldestFirst: flag('YEW_AUDIT_OLDEST_FIRST'),
  cloudEventsBinary: flag('YEW_CLOUDEVENTS_BINARY'),
  redactKeyOnReplay: flag('YEW_REDACT_KEY_ON_REPLAY'),
  deliveryPageSize: num('YEW_DELIVERY_PAGE_SIZE'),
});
const { close: _close, ...handle } = yew;
const file = process.argv[2];
if (file) writeFileSync(file, JSON.stringify(handle, null, 2));
else console.log(JSON.stringify(handle, null, 2));
process.on('SIGINT', () => void yew.close().then(() => process.exit(0)));
process.on('SIGTERM', () => void yew.close().then(() => process.exit(0)));
