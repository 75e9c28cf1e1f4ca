// Starts blackthorn by hand and prints what a CI job would read from its environment:
//   npx node conformance/e2e/independent/blackthorn/start.ts
import { startBlackthorn } from './server.ts';

const target = await startBlackthorn();
const env = {
  NCS_BASE_URL: target.baseUrl,
  NCS_ALT_BASE_URL: target.altBaseUrl,
  NCS_TENANT: target.tenant,
  NCS_OTHER_TENANT: target.otherTenant,
  NCS_FOREIGN_TENANT: target.foreignTenant,
  NCS_CLIENT_ID: target.clientId,
  NCS_CLIENT_SECRET: target.clientSecret,
  NCS_TOKEN_URL: target.tokenUrl,
};
for (const [k, v] of Object.entries(env)) console.log(`${k}=${v}`);
console.log('# profile: conformance/e2e/independent/blackthorn/blackthorn-profile.json; Ctrl-C stops');
process.on('SIGINT', () => {
  void target.close().then(() => process.exit(0));
});
