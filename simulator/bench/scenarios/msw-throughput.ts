// In-process throughput: the MSW handlers (fetch through setupServer) and a direct call of the core,
// measured in a child process of their own so the bench's own work does not disturb them.
import { spawn } from 'node:child_process';
import { subscribe } from 'node:diagnostics_channel';
import { fileURLToPath } from 'node:url';
import { rps } from '../lib/format.ts';
import { ROOT } from '../lib/processes.ts';
import type { Scenario, ScenarioResult } from '../lib/types.ts';

const SELF = fileURLToPath(import.meta.url);

interface Measured {
  /** fetch() to the default https:// base URL, through setupServer. */
  mswRps: number;
  /** The same with an http:// base URL (msw then emulates no TLS socket). */
  mswHttpRps: number;
  coreRps: number;
  /** CPU (user + system) of this process per completed call, µs: what a test pays per call. */
  mswCpuUs: number;
  mswHttpCpuUs: number;
  coreCpuUs: number;
  /** Connections undici opened per call through MSW (both base URLs): ~0 once they are reused. */
  mswConnectionsPerCall: number;
  mswRequests: number;
  coreRequests: number;
  failures: number;
}

/** Keeps `concurrency` calls in flight for `seconds`; returns completed calls per second, CPU per call and failures. */
async function drive(concurrency: number, seconds: number, call: () => Promise<boolean>) {
  const until = performance.now() + seconds * 1000;
  let done = 0;
  let failures = 0;
  const started = performance.now();
  const cpu = process.cpuUsage();
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (performance.now() < until) {
        if (await call()) done++;
        else failures++;
      }
    }),
  );
  const used = process.cpuUsage(cpu);
  return {
    rps: done / ((performance.now() - started) / 1000),
    cpuUs: (used.user + used.system) / Math.max(1, done + failures),
    requests: done,
    failures,
  };
}

async function child(seconds: number, warmup: number): Promise<Measured> {
  const { setupServer } = await import('msw/node');
  const { createSandbox } = await import('../../app/sandbox.ts');
  const sandbox = createSandbox({ rateLimit: false });
  const plainHttp = createSandbox({
    baseUrl: 'http://api.sandbox.example',
    altBaseUrl: 'http://api.sandbox-alt.example',
    rateLimit: false,
  });
  await Promise.all([sandbox.ready, plainHttp.ready]);
  let connections = 0;
  subscribe('undici:client:connected', () => connections++);
  const server = setupServer(...sandbox.handlers, ...plainHttp.handlers);
  server.listen({ onUnhandledFrame: 'error' });
  const viaMsw = (sb: typeof sandbox) => {
    const { token, tenant } = sb.issueToken(undefined, 3600);
    const headers = { authorization: `Bearer ${token}`, 'x-service-tenant': tenant };
    const url = `${sb.baseUrl}/api/public/v1/providers`;
    return async () => {
      const res = await fetch(url, { headers });
      await res.arrayBuffer();
      return res.status === 200;
    };
  };
  const { token, tenant } = sandbox.issueToken(undefined, 3600);
  const plain = {
    method: 'GET',
    path: '/api/public/v1/providers',
    query: {},
    headers: { authorization: `Bearer ${token}`, 'x-service-tenant': tenant },
  };
  const viaCore = async () => (await sandbox.core.handle(plain)).status === 200;
  const measure = async (call: () => Promise<boolean>) => {
    await drive(50, warmup, call);
    const before = connections;
    const measured = await drive(50, seconds, call);
    return { ...measured, opened: connections - before };
  };
  const msw = await measure(viaMsw(sandbox));
  const mswHttp = await measure(viaMsw(plainHttp));
  const core = await measure(viaCore);
  server.close();
  return {
    mswRps: msw.rps,
    mswHttpRps: mswHttp.rps,
    coreRps: core.rps,
    mswCpuUs: msw.cpuUs,
    mswHttpCpuUs: mswHttp.cpuUs,
    coreCpuUs: core.cpuUs,
    mswConnectionsPerCall: (msw.opened + mswHttp.opened) / Math.max(1, msw.requests + mswHttp.requests),
    mswRequests: msw.requests,
    coreRequests: core.requests,
    failures: msw.failures + mswHttp.failures + core.failures,
  };
}

export const mswScenario: Scenario = {
  id: 'msw-in-process',
  title: 'MSW handlers, in process (GET /providers)',
  measures:
    'fetch() through setupServer(...sandbox.handlers) with 50 calls in flight, and the same request straight into core.handle(); one child process, no sockets.',
  async run(ctx): Promise<ScenarioResult> {
    const seconds = Math.max(1, Math.round(ctx.config.seconds / 3));
    const out = await new Promise<string>((resolve, reject) => {
      const proc = spawn(process.execPath, [SELF, '--child', String(seconds), String(ctx.config.warmupSeconds)], {
        cwd: ROOT,
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let stdout = '';
      let stderr = '';
      proc.stdout.on('data', (c: Buffer) => (stdout += c));
      proc.stderr.on('data', (c: Buffer) => (stderr += c));
      const timer = setTimeout(() => proc.kill('SIGKILL'), (seconds * 3 + ctx.config.warmupSeconds * 3 + 60) * 1000);
      proc.on('exit', (code) => {
        clearTimeout(timer);
        if (code === 0) resolve(stdout);
        else reject(new Error(`in-process child exited ${code}: ${stderr.slice(0, 2000)}`));
      });
    });
    const m = JSON.parse(out.trim().split('\n').at(-1)!) as Measured;
    const result: ScenarioResult = {
      id: this.id,
      title: this.title,
      status: m.failures ? 'failed' : 'ok',
      metrics: { ...m },
      row: {
        result: `MSW ${rps(m.mswRps)} (https base URL), ${rps(m.mswHttpRps)} (http)`,
        baseline: `core.handle ${rps(m.coreRps)}`,
        ratio: `${(m.mswRps / m.coreRps).toFixed(4)}x`,
        cpu: `MSW ${Math.round(m.mswCpuUs)} µs (https), ${Math.round(m.mswHttpCpuUs)} µs (http), core.handle ${Math.round(m.coreCpuUs)} µs; ${m.mswConnectionsPerCall.toFixed(3)} connections opened per MSW call`,
      },
      notes: [
        "the baseline of this row is the direct core call and the ratio MSW over it: the cost of msw's fetch interception, not of the simulator",
      ],
    };
    if (m.failures) result.reason = `${m.failures} calls did not answer 200`;
    return result;
  },
};

if (import.meta.main && process.argv[2] === '--child') {
  const measured = await child(Number(process.argv[3]), Number(process.argv[4]));
  process.stdout.write(`${JSON.stringify(measured)}\n`);
  process.exit(0);
}
