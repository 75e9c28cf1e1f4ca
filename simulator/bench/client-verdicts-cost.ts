// The observer hook's cost on the hot path, in process: the same sandbox with and without client
// verdicts, GET /providers and POST /connections (new keys) through core.handle, interleaved rounds of
// a fixed number of calls, CPU time per call (process.cpuUsage: a busy machine delays a run, it does not
// bill it), medians. AA=1 runs both sides without verdicts (the noise floor).
// Run: npx node simulator/bench/client-verdicts-cost.ts [calls per round, default 20000] [rounds, default 7]
import { createSandbox } from '../app/sandbox.ts';
import { CURRENT_VERSION } from '../contract/versions.ts';
import type { CoreHandler, PlainRequest, PlainResponse } from '../core/types.ts';
import { createClientVerdicts } from '../client-rules/index.ts';
import { newContext } from '../core/context.ts';
import { compose } from '../core/pipeline.ts';
import { ok } from '../core/reply.ts';
import { runOf } from '../core/step.ts';

const calls = Number(process.argv[2] ?? 20_000);
const rounds = Number(process.argv[3] ?? 7);
const body = new TextEncoder().encode(
  JSON.stringify({
    connectorId: 'tillcraft-pos-cloud',
    environment: 'sandbox',
    scopeLabel: 'Bench venue',
    capabilities: ['orders.read'],
  }),
);

function side(verdicts: boolean) {
  const sandbox = createSandbox({ clientVerdicts: verdicts, inspector: false, rateLimit: false, activationDelayMs: 0 });
  const { token, tenant } = sandbox.issueToken(undefined, 24 * 3600);
  const headers = { authorization: `Bearer ${token}`, 'x-service-tenant': tenant, 'service-version': CURRENT_VERSION };
  return { core: sandbox.core as CoreHandler, headers, ready: sandbox.ready };
}

let keys = 0;
/** CPU microseconds per call. */
async function rate(s: ReturnType<typeof side>, kind: 'get' | 'post'): Promise<number> {
  const n = kind === 'get' ? calls : Math.ceil(calls / 10);
  const start = process.cpuUsage();
  for (let i = 0; i < n; i++) {
    const req: PlainRequest =
      kind === 'get'
        ? { method: 'GET', path: '/api/public/v1/providers', query: {}, headers: s.headers }
        : {
            method: 'POST',
            path: '/api/public/v1/connections',
            query: {},
            headers: { ...s.headers, 'content-type': 'application/json', 'idempotency-key': `bench-key-${++keys}` },
            body,
          };
    await s.core.handle(req);
  }
  const used = process.cpuUsage(start);
  return (used.user + used.system) / n;
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const on = side(process.env.AA !== '1');
const off = side(false);
await Promise.all([on.ready, off.ready]);
for (const kind of ['get', 'post'] as const) {
  const with_: number[] = [];
  const without: number[] = [];
  await rate(on, kind);
  await rate(off, kind); // warm-up
  for (let r = 0; r < rounds; r++) {
    without.push(await rate(off, kind));
    with_.push(await rate(on, kind));
  }
  const a = median(without);
  const b = median(with_);
  process.stdout.write(
    `${kind.toUpperCase()}: without ${a.toFixed(1)} µs CPU per call, with ${b.toFixed(1)} µs, ${(((b - a) / a) * 100).toFixed(1)} % more (medians of ${rounds} interleaved rounds)\n`,
  );
}
// The step alone: the pipeline with and without the observer around a terminal that answers at once.
const verdicts = createClientVerdicts();
const token = {
  clientId: 'app',
  tenants: ['t1'],
  scopes: [],
  environment: 'sandbox' as const,
  issuedAt: 0,
  expiresAt: 1,
};
const answer = ok({});
const terminal = async () => answer;
const bare = compose([], terminal);
const observed = compose([runOf(verdicts.step)], terminal);
const req: PlainRequest = {
  method: 'GET',
  path: '/api/public/v1/providers',
  query: {},
  headers: { 'x-service-tenant': 't1' },
};
async function stepNs(run: typeof bare): Promise<number> {
  const n = 200_000;
  const start = process.cpuUsage();
  for (let i = 0; i < n; i++) {
    const ctx = newContext(req, 'req_x', 0);
    ctx.access = { token, tenant: 't1' };
    await run(ctx);
  }
  const used = process.cpuUsage(start);
  return ((used.user + used.system) * 1000) / n;
}
const bareNs: number[] = [];
const observedNs: number[] = [];
for (let r = 0; r < rounds; r++) {
  bareNs.push(await stepNs(bare));
  observedNs.push(await stepNs(observed));
}
process.stdout.write(
  `the step alone: ${(median(observedNs) - median(bareNs)).toFixed(0)} ns CPU per call (${median(bareNs).toFixed(0)} ns without, ${median(observedNs).toFixed(0)} ns with)\n`,
);
process.exit(0);
