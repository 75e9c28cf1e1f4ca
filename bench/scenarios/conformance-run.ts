import { existsSync } from 'node:fs';
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
    return typeof mod.runConformance === 'function' ? (mod.runConformance as RunConformance) : 'conformance/index.ts exports no runConformance';
  } catch (err) {
    return `conformance/index.ts does not load: ${(err as Error).message}`;
  }
}

export const conformanceScenario: Scenario = {
  id: 'conformance',
  title: 'Conformance kit, full run (local simulator)',
  measures: 'Wall time of runConformance() with the token and tenant of a fresh local `ncs serve`, every check selected.',
  async run(): Promise<ScenarioResult> {
    const kit = await loadKit();
    if (typeof kit === 'string') return notAvailable(this, kit);
    const sim = await startSimulator();
    try {
      const started = performance.now();
      const result = await kit({ baseUrl: sim.baseUrl, tenant: sim.tenant, token: sim.token });
      const wallMs = performance.now() - started;
      const counts = Object.entries(result.summary ?? {}).filter(([, v]) => typeof v === 'number') as [string, number][];
      const out: ScenarioResult = {
        id: this.id, title: this.title, status: result.exitCode === 2 ? 'failed' : 'ok',
        metrics: { wallMs, exitCode: result.exitCode, ...Object.fromEntries(counts) },
        row: { result: `${ms(wallMs)} (exit ${result.exitCode}${counts.length ? `; ${counts.map(([k, v]) => `${k} ${v}`).join(', ')}` : ''})` },
        notes: result.exitCode === 1 ? ['some checks failed against the simulator: see `ncs conformance` for which'] : [],
      };
      if (result.exitCode === 2) out.reason = `the kit could not run: ${result.error ?? 'setup error'}`;
      return out;
    } finally {
      await sim.stop();
    }
  },
};
