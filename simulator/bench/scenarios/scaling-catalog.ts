import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { generateCatalog } from '../fixture-generator.ts';
import { count, kb, mb, ms } from '../lib/format.ts';
import { runLoad } from '../lib/load.ts';
import { NCS_BIN, serveArgv, startSimulator } from '../lib/processes.ts';
import type { Scenario, ScenarioResult } from '../lib/types.ts';
import { startUp } from './cold-start.ts';
import { requestSpecs, type RequestName } from './requests.ts';

const SIZES = [100, 1_000, 10_000];
const REQUESTS: RequestName[] = ['providers', 'connectors', 'capabilities'];

export const catalogScalingScenario: Scenario = {
  id: 'scaling-catalog',
  title: 'Scaling with catalog size',
  measures:
    'Generated catalogs of 100, 1,000 and 10,000 connectors: start-up until the port answers, then req/s and p99 of GET /providers, filtered GET /connectors and POST /capabilities (one run each, no baseline).',
  async run(ctx): Promise<ScenarioResult> {
    const dir = mkdtempSync(join(tmpdir(), 'ncs-bench-catalog-'));
    const rows: string[][] = [];
    const metrics: Record<string, number> = {};
    const seconds = Math.max(2, Math.round(ctx.config.seconds / 3));
    try {
      for (const size of SIZES) {
        const file = join(dir, `catalog-${size}.json`);
        writeFileSync(file, JSON.stringify(generateCatalog(size)));
        const { wallMs: startMs } = await startUp((p) => serveArgv(NCS_BIN, p, ['--fixtures', file]), '/api/public/v1');
        metrics[`start_${size}`] = startMs;
        const sim = await startSimulator({ extra: ['--fixtures', file] });
        try {
          const specs = requestSpecs({ token: sim.token!, tenant: sim.tenant! });
          for (const name of REQUESTS) {
            const spec = specs[name];
            const sample = await fetch(`${sim.baseUrl}${spec.path}`, {
              method: spec.method,
              headers: spec.headers!,
              ...(spec.body ? { body: spec.body } : {}),
            });
            const bytes = (await sample.arrayBuffer()).byteLength;
            const s = await runLoad(sim.baseUrl, spec, {
              connections: ctx.config.connections,
              seconds,
              warmupSeconds: 1,
            });
            metrics[`${name}_rps_${size}`] = s.rps;
            metrics[`${name}_p99_${size}`] = s.p99;
            rows.push([
              count(size),
              name,
              `${count(s.rps)}${s.non2xx ? ` (${s.non2xx} non-2xx)` : ''}`,
              ms(s.p99),
              kb(bytes),
            ]);
          }
          metrics[`peakRssMb_${size}`] = (sim.peakRss() ?? 0) / 1024 / 1024;
          rows.push([count(size), 'start-up, peak RSS', ms(startMs), '', mb(sim.peakRss() ?? 0)]);
        } finally {
          await sim.stop();
        }
        ctx.log(`    ${size} connectors measured`);
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
    const first = metrics[`connectors_rps_${SIZES[0]}`]!;
    const lastRps = metrics[`connectors_rps_${SIZES.at(-1)}`]!;
    return {
      id: this.id,
      title: this.title,
      status: 'ok',
      metrics,
      row: {
        result: `GET /connectors (filtered): ${count(first)} -> ${count(lastRps)} req/s from ${count(SIZES[0]!)} to ${count(SIZES.at(-1)!)} connectors; start ${ms(metrics[`start_${SIZES[0]}`]!)} -> ${ms(metrics[`start_${SIZES.at(-1)}`]!)}`,
      },
      details: { title: 'Catalog size', header: ['connectors', 'request', 'req/s', 'p99', 'response'], rows },
    };
  },
};
