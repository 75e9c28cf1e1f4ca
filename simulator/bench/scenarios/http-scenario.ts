import { alternate } from '../lib/compare.ts';
import { mb, ms, ratio, rps } from '../lib/format.ts';
import type { LoadSpec } from '../lib/load.ts';
import { startSimulator, type ServerProcess } from '../lib/processes.ts';
import type { Scenario, ScenarioResult } from '../lib/types.ts';
import { requestSpecs, type RequestName } from './requests.ts';

export interface HttpScenarioDef {
  id: string;
  title: string;
  measures: string;
  request: RequestName;
  /** Runs once against the fresh simulator before the load (e.g. the first call of a replay key). */
  prepare?: (sim: ServerProcess, spec: LoadSpec) => Promise<void>;
}

/**
 * An HTTP scenario: a fresh `ncs serve` process, the request driven in alternating rounds against it
 * and the bare baseline (the very same request: method, path, headers, body), reported as req/s, p50/p99, ratios and the simulator's peak RSS. Any non-2xx
 * answer makes the scenario failed (its numbers would not be the ones asked for).
 */
export function httpScenario(def: HttpScenarioDef): Scenario {
  return {
    id: def.id,
    title: def.title,
    measures: def.measures,
    async run(ctx): Promise<ScenarioResult> {
      const base = await ctx.baseline();
      const sim = await startSimulator();
      try {
        const spec = requestSpecs({ token: sim.token!, tenant: sim.tenant! })[def.request];
        await def.prepare?.(sim, spec);
        const {
          sim: s,
          base: b,
          simCpu,
          baseCpu,
        } = await alternate(
          ctx.config,
          { baseUrl: sim.baseUrl, spec, pid: sim.pid },
          { baseUrl: base.baseUrl, spec, pid: base.pid },
          ctx.log,
        );
        const peak = sim.peakRss() ?? 0;
        const metrics = {
          rps: s.rps,
          p50: s.p50,
          p99: s.p99,
          p999: s.p999,
          requests: s.requests,
          non2xx: s.non2xx,
          errors: s.errors,
          baselineRps: b.rps,
          baselineP50: b.p50,
          baselineP99: b.p99,
          rpsRatio: b.rps ? s.rps / b.rps : 0,
          // Latencies are whole milliseconds in autocannon; a 0 ms baseline counts as 1 ms.
          p99Ratio: s.p99 / Math.max(b.p99, 1),
          peakRssMb: peak / 1024 / 1024,
          simCpu,
          baseCpu,
          // CPU per answered request: what each side would cost with a core to itself, which stays
          // comparable when the load generator (sharing the machine) is the limit of both runs.
          simCpuUsPerRequest: s.rps ? (simCpu / s.rps) * 1e6 : 0,
          baseCpuUsPerRequest: b.rps ? (baseCpu / b.rps) * 1e6 : 0,
          cpuCapacityRatio: 0,
        };
        metrics.cpuCapacityRatio = metrics.simCpuUsPerRequest
          ? metrics.baseCpuUsPerRequest / metrics.simCpuUsPerRequest
          : 0;
        const result: ScenarioResult = {
          id: def.id,
          title: def.title,
          status: 'ok',
          metrics,
          row: {
            result: rps(s.rps),
            baseline: rps(b.rps),
            ratio: `${ratio(metrics.rpsRatio)} (per CPU: ${ratio(metrics.cpuCapacityRatio)})`,
            latency: `${ms(s.p50)} / ${ms(s.p99)} (baseline ${ms(b.p50)} / ${ms(b.p99)})`,
            memory: mb(peak),
            cpu: `${metrics.simCpuUsPerRequest.toFixed(0)} µs (baseline ${metrics.baseCpuUsPerRequest.toFixed(0)} µs)`,
          },
          notes: [
            `server busy ${(simCpu * 100).toFixed(0)}% (simulator) and ${(baseCpu * 100).toFixed(0)}% (baseline) of one core during the measured runs`,
          ],
        };
        if (s.non2xx || s.errors || b.non2xx || b.errors) {
          result.status = 'failed';
          result.reason = `unexpected answers: simulator ${JSON.stringify(s.statusCodes)} with ${s.errors} errors, baseline ${JSON.stringify(b.statusCodes)} with ${b.errors} errors`;
        }
        return result;
      } finally {
        await sim.stop();
      }
    },
  };
}
