// Reproduces a kit run against birch with other legal choices, in-process:
//   npx node conformance/e2e/independent/birch/run-variant.ts '<variant json>' ['<profile overrides json>' | none] ['<rate limit json>']
// e.g. '{"creationEvent":"connection.provisioned"}' none. Prints every check that did not pass.
import { readFileSync } from 'node:fs';
import { runConformance } from '../../../index.ts';
import { startBirch } from './index.ts';

const variant = JSON.parse(process.argv[2] ?? '{}') as Record<string, unknown>;
const overrides = process.argv[3] ?? 'none';
const base = JSON.parse(readFileSync(new URL('./deployment-profile.json', import.meta.url), 'utf8')) as Record<
  string,
  unknown
>;
const deploymentProfile =
  overrides === 'none' ? undefined : { ...base, ...(JSON.parse(overrides) as Record<string, unknown>) };
const rateLimit = JSON.parse(process.argv[4] ?? '{"limit":600,"windowSeconds":10}') as {
  limit: number;
  windowSeconds: number;
};
const birch = await startBirch({ rateLimit, variant });
try {
  const r = await runConformance({
    baseUrl: birch.baseUrl,
    altBaseUrl: birch.altBaseUrl,
    tenant: birch.tenant,
    otherTenant: birch.otherTenant,
    foreignTenant: 'closed-diner',
    clientId: birch.clientId,
    clientSecret: birch.clientSecret,
    tokenUrl: birch.tokenUrl,
    profile: 'full',
    ...(deploymentProfile ? { deploymentProfile } : {}),
  });
  for (const x of r.results) {
    if (x.status === 'pass') continue;
    const { check: _c, ...rest } = x;
    console.log(`${x.status} ${x.check.severity} ${x.check.name}: ${JSON.stringify(rest).slice(0, 700)}`);
  }
  console.log(`exit ${r.exitCode}`);
} finally {
  await birch.close();
}
