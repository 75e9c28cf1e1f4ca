import { count, mb, ms } from '../lib/format.ts';
import { runLoad, sendAmount } from '../lib/load.ts';
import { startSimulator } from '../lib/processes.ts';
import type { Scenario, ScenarioResult } from '../lib/types.ts';
import { requestSpecs } from './requests.ts';

/** Above this many stored connections GET /connections (the whole list, no paging) is not driven. */
const MAX_LISTED = 10_000;

export const connectionsScalingScenario: Scenario = {
  id: 'scaling-connections',
  title: 'Scaling with stored connections',
  measures:
    'A fresh simulator filled with N connections of one tenant over HTTP, then POST /connections, POST /capabilities and GET /connections (the unpaged list) driven at that size; RSS per stored connection.',
  async run(ctx): Promise<ScenarioResult> {
    const levels = ctx.config.quick ? [1_000, 10_000] : [1_000, 10_000, 100_000];
    const seconds = Math.max(2, Math.round(ctx.config.seconds / 3));
    const rows: string[][] = [];
    const metrics: Record<string, number> = {};
    for (const n of levels) {
      const sim = await startSimulator();
      try {
        const specs = requestSpecs({ token: sim.token!, tenant: sim.tenant! });
        const rssBefore = sim.rss() ?? 0;
        const stored = await sendAmount(sim.baseUrl, specs.connections, n, ctx.config.connections);
        if (stored !== n) throw new Error(`only ${stored} of ${n} connections were created`);
        const rssAfter = sim.rss() ?? 0;
        const perConnection = (rssAfter - rssBefore) / n;
        metrics[`rssPerConnectionBytes_${n}`] = perConnection;
        const drive = async (name: 'connections' | 'capabilities' | 'list', connections = ctx.config.connections) => {
          const spec =
            name === 'list'
              ? { method: 'GET' as const, path: '/api/public/v1/connections', headers: specs.providers.headers! }
              : specs[name];
          const s = await runLoad(sim.baseUrl, spec, { connections, seconds, warmupSeconds: 1 });
          metrics[`${name}_rps_${n}`] = s.rps;
          metrics[`${name}_p99_${n}`] = s.p99;
          return s;
        };
        const cap = await drive('capabilities');
        rows.push([count(n), 'POST /capabilities', count(cap.rps), ms(cap.p99), '']);
        if (n <= MAX_LISTED) {
          const list = await drive('list', 10);
          const bytes = (
            await (
              await fetch(`${sim.baseUrl}/api/public/v1/connections`, { headers: specs.providers.headers! })
            ).arrayBuffer()
          ).byteLength;
          rows.push([
            count(n),
            'GET /connections (10 in flight)',
            count(list.rps),
            ms(list.p99),
            `${mb(bytes)} per answer`,
          ]);
        } else
          rows.push([count(n), 'GET /connections', 'not driven', '', `the unpaged list of ${count(n)} is tens of MB`]);
        const post = await drive('connections');
        rows.push([
          count(n),
          'POST /connections',
          count(post.rps),
          ms(post.p99),
          `${(perConnection / 1024).toFixed(2)} KB RSS per stored connection`,
        ]);
      } finally {
        await sim.stop();
      }
      ctx.log(`    ${count(n)} stored connections measured`);
    }
    const lo = levels[0]!;
    const hi = levels.at(-1)!;
    return {
      id: this.id,
      title: this.title,
      status: 'ok',
      metrics,
      row: {
        result: `POST /connections ${count(metrics[`connections_rps_${lo}`]!)} -> ${count(metrics[`connections_rps_${hi}`]!)} req/s, POST /capabilities ${count(metrics[`capabilities_rps_${lo}`]!)} -> ${count(metrics[`capabilities_rps_${hi}`]!)} req/s from ${count(lo)} to ${count(hi)} stored`,
      },
      details: {
        title: 'Stored connections (one tenant)',
        header: ['stored', 'request', 'req/s', 'p99', 'note'],
        rows,
      },
    };
  },
};
