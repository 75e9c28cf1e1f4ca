// Runs ginkgo by hand: `npx node conformance/e2e/independent/ginkgo/start.ts [ready-file.json]`.
// GINKGO_* variables switch on other legal choices (see README.md). The ready file holds the addresses,
// tenants and client credentials as JSON (secrets go to the file, not to the console).
import { writeFileSync } from 'node:fs';
import { type GinkgoOptions, startGinkgo } from './server.ts';

function num(name: string): number | undefined {
  const v = process.env[name];
  return v === undefined || v === '' ? undefined : Number(v);
}

const options: GinkgoOptions = {
  rateLimit: num('GINKGO_RATE_LIMIT'),
  windowMs: num('GINKGO_WINDOW_MS'),
  tokenTtlMs: num('GINKGO_TOKEN_TTL_MS'),
  activationMs: num('GINKGO_ACTIVATION_MS'),
  pauseAfterMs: num('GINKGO_PAUSE_AFTER_MS'),
  streamKeep: num('GINKGO_STREAM_KEEP'),
  versionRequired: process.env.GINKGO_VERSION_REQUIRED === '1',
  port: num('GINKGO_PORT'),
  altPort: num('GINKGO_ALT_PORT'),
  clientSecret: process.env.GINKGO_CLIENT_SECRET || undefined,
  accessLog: process.env.GINKGO_ACCESS_LOG === '1',
  streamFromStart: process.env.GINKGO_STREAM_FROM_START === '1',
  resendAsNew: process.env.GINKGO_RESEND_AS_NEW === '1',
  storeRefusals: process.env.GINKGO_STORE_REFUSALS === '1',
  tokenAdvert: (process.env.GINKGO_TOKEN_ADVERT || undefined) as GinkgoOptions['tokenAdvert'],
};

const d = await startGinkgo(options);
const { close: _close, ...info } = d;
const file = process.argv[2];
if (file) writeFileSync(file, JSON.stringify(info, null, 2));
console.log(
  `ginkgo on ${d.baseUrl} and ${d.altBaseUrl} (tenant ${d.tenant}, client ${d.clientId}, token ${d.tokenUrl})`,
);
const stop = () => {
  void d.close().then(() => process.exit(0));
};
process.on('SIGINT', stop);
process.on('SIGTERM', stop);
