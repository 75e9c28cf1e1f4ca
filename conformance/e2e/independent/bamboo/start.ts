// Usage (from /work/main):
//   BAMBOO_RATE_LIMIT=200 BAMBOO_WINDOW_MS=2000 npx node conformance/e2e/independent/bamboo/start.ts /tmp/bamboo.json
// then run the kit with the printed addresses (README.md shows the command).
// Starts bamboo by hand and prints (or writes to the file named in argv[2]) what the kit needs.
// BAMBOO_RATE_LIMIT, BAMBOO_WINDOW_MS, BAMBOO_TOKEN_TTL, BAMBOO_RETRY_SCALE, BAMBOO_ACTIVATION_MS,
// BAMBOO_SERVICE_VERSION_REQUIRED=1, BAMBOO_AUDIT_OLDEST_FIRST=1, BAMBOO_STRICT_QUERY=1,
// BAMBOO_REQUIRE_JSON_CONTENT_TYPE=1, BAMBOO_REPLAY_ORIGINAL_META=1, BAMBOO_STREAM_UNNAMED=1,
// BAMBOO_STREAM_MAX_MS=ms, BAMBOO_DELIVERY_DELAY_MS=ms, BAMBOO_RATE_ALGORITHM=gcra,
// BAMBOO_AUDIT_PROOF_RFC8785=1, BAMBOO_TOKEN_AUTH_METHOD=client_secret_post|client_secret_basic switch on
// other legal choices.
import { writeFileSync } from 'node:fs';
import { startBamboo } from './server.ts';
import type { BambooOptions } from './state.ts';

const env = process.env;
const num = (v: string | undefined) => (v === undefined || v === '' ? undefined : Number(v));
const options: Partial<BambooOptions> = {};
const set = <K extends keyof BambooOptions>(k: K, v: BambooOptions[K] | undefined) => {
  if (v !== undefined) options[k] = v;
};
set('rateLimit', num(env.BAMBOO_RATE_LIMIT));
set('windowMs', num(env.BAMBOO_WINDOW_MS));
set('tokenTtlSeconds', num(env.BAMBOO_TOKEN_TTL));
set('retryScale', num(env.BAMBOO_RETRY_SCALE));
set('activationMs', num(env.BAMBOO_ACTIVATION_MS));
if (env.BAMBOO_SERVICE_VERSION_REQUIRED === '1') options.serviceVersionRequired = true;
if (env.BAMBOO_AUDIT_OLDEST_FIRST === '1') options.auditOldestFirst = true;
if (env.BAMBOO_AUDIT_PROOF_RFC8785 === '1') options.auditProofRfc8785 = true;
if (env.BAMBOO_STRICT_QUERY === '1') options.strictQuery = true;
if (env.BAMBOO_REQUIRE_JSON_CONTENT_TYPE === '1') options.requireJsonContentType = true;
if (env.BAMBOO_REPLAY_ORIGINAL_META === '1') options.replayOriginalMeta = true;
if (env.BAMBOO_STREAM_UNNAMED === '1') options.streamUnnamed = true;
set('streamMaxMs', num(env.BAMBOO_STREAM_MAX_MS));
set('deliveryDelayMs', num(env.BAMBOO_DELIVERY_DELAY_MS));
if (env.BAMBOO_RATE_ALGORITHM === 'gcra') options.rateAlgorithm = 'gcra';
const method = env.BAMBOO_TOKEN_AUTH_METHOD;
if (method === 'client_secret_basic' || method === 'client_secret_post') options.tokenAuthMethod = method;

const b = await startBamboo(options);
const out = {
  baseUrl: b.baseUrl,
  altBaseUrl: b.altBaseUrl,
  tenant: b.tenant,
  otherTenant: b.otherTenant,
  foreignTenant: b.foreignTenant,
  clientId: b.clientId,
  clientSecret: b.clientSecret,
  tokenUrl: b.tokenUrl,
};
if (process.argv[2]) writeFileSync(process.argv[2], JSON.stringify(out, null, 2));
console.log(JSON.stringify(out, null, 2));
process.on('SIGINT', () => void b.close().then(() => process.exit(0)));
process.on('SIGTERM', () => void b.close().then(() => process.exit(0)));
