// CPU per request inside one process, without sockets: a sandbox as `ncs serve` builds it (inspector
// journal on, rate limit off as in the load scenarios) answers N requests of one shape straight through
// `core.handle()`, 20 in flight; process.cpuUsage() over the batch, including the deferred activation of
// each new connection (the sandbox clock is advanced past the delay and the due work drained).
// Repeatable on a loaded machine where wall-clock rates are not; run it with --cpu-prof for a profile.
// --alloc: instead of CPU, bytes allocated per request (V8's sampling heap profiler, collected objects
// included) and the top allocation sites: what the collector has to clean up, counted, not timed.
// --retained (run with node --expose-gc): heap kept per request after full collections, by what the
// sandbox stores (connections, idempotency records, audit entries, stream messages), counted, not timed.
// Usage: npx node [--cpu-prof --cpu-prof-dir DIR] simulator/bench/core-cost.ts [connections|providers|replay] [--requests 20000] [--rounds 5] [--alloc] [--retained]
import { Session } from 'node:inspector/promises';
import { createSandbox } from '../app/sandbox.ts';
import type { PlainRequest } from '../core/types.ts';
import { createClock } from '../lib/clock.ts';
import { CONNECTION_BODY, REPLAY_KEY } from './scenarios/requests.ts';

const which = process.argv[2] ?? 'connections';
const opt = (name: string, fallback: number) => {
  const i = process.argv.indexOf(name);
  return i === -1 ? fallback : Number(process.argv[i + 1]);
};
const requests = opt('--requests', 20_000);
const rounds = opt('--rounds', 5);

const clock = createClock();
const sandbox = createSandbox({ rateLimit: false, clock });
await sandbox.ready;
const { token, tenant } = sandbox.issueToken(undefined, 24 * 3600);
const auth = { authorization: `Bearer ${token}`, 'x-service-tenant': tenant };
const body = new TextEncoder().encode(CONNECTION_BODY);
let n = 0;
const shape = (): PlainRequest => {
  const base = { query: {}, origin: 'http://127.0.0.1:4010', clientAddress: '127.0.0.1' };
  if (which === 'providers') return { ...base, method: 'GET', path: '/api/public/v1/providers', headers: auth };
  const key = which === 'replay' ? REPLAY_KEY : `bench-key-${++n}`;
  return {
    ...base,
    method: 'POST',
    path: '/api/public/v1/connections',
    headers: { ...auth, 'content-type': 'application/json', 'idempotency-key': key },
    body,
  };
};

async function batch(count: number) {
  let left = count;
  await Promise.all(
    Array.from({ length: 20 }, async () => {
      while (left-- > 0) {
        const res = await sandbox.core.handle(shape());
        if (res.status >= 300) throw new Error(`status ${res.status}: ${res.body}`);
      }
    }),
  );
  // Deferred work of these requests (activations) runs now, inside the measured batch.
  clock.advance(3000);
  await new Promise((r) => setTimeout(r, 20));
}

await batch(Math.min(5000, requests));
if (process.argv.includes('--alloc')) {
  await allocationProfile(requests);
  process.exit(0);
}
if (process.argv.includes('--retained')) {
  await retainedPerRequest(requests);
  process.exit(0);
}
const out: number[] = [];
for (let r = 0; r < rounds; r++) {
  const before = process.cpuUsage();
  await batch(requests);
  const used = process.cpuUsage(before);
  out.push((used.user + used.system) / requests);
}
const sorted = [...out].sort((a, b) => a - b);
process.stdout.write(
  `${which} via core.handle(): ${requests} x ${rounds}; µs CPU/request median ${sorted[Math.floor(rounds / 2)]!.toFixed(1)}, min ${sorted[0]!.toFixed(1)} (${out.map((x) => x.toFixed(1)).join(', ')})\n`,
);
process.exit(0);

/** Heap after full collections, before and after `count` more requests: what each one leaves behind. */
async function retainedPerRequest(count: number) {
  const gc = (globalThis as { gc?: () => void }).gc;
  if (!gc) throw new Error('--retained needs node --expose-gc');
  const settled = async () => {
    for (let i = 0; i < 3; i++) {
      await new Promise((r) => setTimeout(r, 10));
      gc();
    }
    return process.memoryUsage().heapUsed;
  };
  const before = await settled();
  await batch(count);
  const after = await settled();
  process.stdout.write(
    `${which}: ${count} requests; heap kept per request ${Math.round((after - before) / count)} bytes (heap ${(after / 1e6).toFixed(1)} MB)\n`,
  );
}

interface SamplingNode {
  callFrame: { functionName: string; url: string; lineNumber: number };
  selfSize: number;
  children: SamplingNode[];
}

async function allocationProfile(count: number) {
  const session = new Session();
  session.connect();
  await session.post('HeapProfiler.enable');
  // Every sampled allocation, including objects the collector already took: the garbage a request makes.
  await session.post('HeapProfiler.startSampling', {
    samplingInterval: 256,
    includeObjectsCollectedByMajorGC: true,
    includeObjectsCollectedByMinorGC: true,
  });
  await batch(count);
  const { profile } = (await session.post('HeapProfiler.stopSampling')) as unknown as {
    profile: { head: SamplingNode };
  };
  const bySite = new Map<string, number>();
  const walk = (node: SamplingNode) => {
    const f = node.callFrame;
    const site = `${f.functionName || '(anonymous)'} ${f.url.replace(/^.*\/(simulator|node_modules)\//, '$1/')}:${f.lineNumber + 1}`;
    bySite.set(site, (bySite.get(site) ?? 0) + node.selfSize);
    for (const c of node.children) walk(c);
  };
  walk(profile.head);
  const total = [...bySite.values()].reduce((a, b) => a + b, 0);
  process.stdout.write(`${which}: ${count} requests; bytes allocated per request ${Math.round(total / count)}\n`);
  for (const [site, bytes] of [...bySite].sort((a, b) => b[1] - a[1]).slice(0, 15))
    process.stdout.write(`${String(Math.round(bytes / count)).padStart(8)}  ${site}\n`);
}
