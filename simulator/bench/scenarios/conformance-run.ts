import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { ms } from '../lib/format.ts';
import { ROOT, startSimulator } from '../lib/processes.ts';
import { notAvailable, type Scenario, type ScenarioResult } from '../lib/types.ts';

/** The kit's entry (package export `./conformance`); it lands from another branch. */
const KIT = join(ROOT, 'conformance/index.ts');

interface KitRun {
  exitCode: number;
  summary?: Record<string, unknown>;
  error?: string;
}
type RunConformance = (options: Record<string, unknown>) => Promise<KitRun>;

/** runConformance when the kit is present, or why it is not. */
export async function loadKit(): Promise<RunConformance | string> {
  if (!existsSync(KIT)) return 'conformance/index.ts does not exist yet (the kit is being built on another branch)';
  try {
    const mod = (await import(pathToFileURL(KIT).href)) as { runConformance?: unknown };
    return typeof mod.runConformance === 'function'
      ? (mod.runConformance as RunConformance)
      : 'conformance/index.ts exports no runConformance';
  } catch (err) {
    return `conformance/index.ts does not load: ${(err as Error).message}`;
  }
}

/** A client of the built-in fixtures acting for two tenants, so the tenant-isolation checks run too. */
const TWO_TENANT_CLIENT = 'network-integrator';

/** Its invented sandbox secret, read from the fixture file (the kit requests its own tokens with it). */
function clientSecret(): string {
  const fixtures = JSON.parse(readFileSync(join(ROOT, 'fixtures/hospitality.json'), 'utf8')) as {
    clients: { id: string; secret?: string }[];
  };
  const secret = fixtures.clients.find((c) => c.id === TWO_TENANT_CLIENT)?.secret;
  if (!secret) throw new Error(`the built-in fixtures have no secret for ${TWO_TENANT_CLIENT}`);
  return secret;
}

export const conformanceScenario: Scenario = {
  id: 'conformance',
  title: 'Conformance kit, full run (local simulator)',
  measures:
    'Wall time of runConformance() against a fresh `ncs serve --alt-port 0` with its defaults (rate limit on): a two-tenant client, the admin token and both base URLs, so every check runs.',
  async run(): Promise<ScenarioResult> {
    const kit = await loadKit();
    if (typeof kit === 'string') return notAvailable(this, kit);
    const sim = await startSimulator({ keepRateLimit: true, extra: ['--alt-port', '0'] });
    try {
      const started = performance.now();
      const result = await kit({
        baseUrl: sim.baseUrl,
        altBaseUrl: sim.altBaseUrl,
        tenant: 'harbour-kitchens',
        otherTenant: 'alpine-bistro',
        clientId: TWO_TENANT_CLIENT,
        clientSecret: clientSecret(),
        adminToken: sim.adminToken,
      });
      const wallMs = performance.now() - started;
      const counts = Object.entries(result.summary ?? {}).filter(([, v]) => typeof v === 'number') as [
        string,
        number,
      ][];
      const out: ScenarioResult = {
        id: this.id,
        title: this.title,
        status: result.exitCode === 2 ? 'failed' : 'ok',
        metrics: { wallMs, exitCode: result.exitCode, ...Object.fromEntries(counts) },
        row: {
          result: `${ms(wallMs)} (exit ${result.exitCode}${counts.length ? `; ${counts.map(([k, v]) => `${k} ${v}`).join(', ')}` : ''})`,
        },
        notes:
          result.exitCode === 1 ? ['some checks failed against the simulator: see `ncs conformance` for which'] : [],
      };
      if (result.exitCode === 2) out.reason = `the kit could not run: ${result.error ?? 'setup error'}`;
      return out;
    } finally {
      await sim.stop();
    }
  },
};
