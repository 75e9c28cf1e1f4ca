// Memory per SSE subscriber with the collector forced, so the number is what a stream keeps rather
// than garbage V8 has not collected yet: the server (the simulator as `ncs serve` builds it, or the
// bare baseline listener) runs in a child process started with --expose-gc and answers "measure"
// over IPC with heap and RSS after two full collections. The parent opens N raw-socket subscribers on
// GET /api/public/v1/stream, in the same way the sse-fanout scenario does.
// Usage: npx node simulator/bench/sse-memory.ts [--subscribers 5000] [--rounds 2] [--no-gc] [--alloc] [--snapshots DIR] [--settle MS]
// --settle: how long after the last subscriber connected the second measure is taken (default 1000 ms).
// Environment: SSE_MEMORY_SITES=N prints the N largest allocation sites with --alloc (bytes, stderr);
// SSE_MEMORY_SPACES=1 prints V8's heap spaces and SSE_MEMORY_SMAPS=1 the resident memory by mapping
// (anonymous = V8's heap pages, [heap] = malloc) at each measure.
import { fork } from 'node:child_process';
import { createServer } from 'node:http';
import { connect, type Socket } from 'node:net';
import { fileURLToPath } from 'node:url';
import { Session } from 'node:inspector/promises';
import * as v8 from 'node:v8';
import { SERVE_NODE_ARGS } from './lib/processes.ts';

const SELF = fileURLToPath(import.meta.url);
const arg = (name: string, fallback: number) => {
  const i = process.argv.indexOf(name);
  return i === -1 ? fallback : Number(process.argv[i + 1]);
};

interface Memory {
  heap: number;
  rss: number;
  external: number;
  /** Bytes allocated since the previous measure (--alloc), 0 without. */
  allocated: number;
}

interface SampleNode {
  head: {
    selfSize: number;
    callFrame: { functionName: string; url: string; lineNumber: number };
    children: SampleNode['head'][];
  };
}

async function childMain(kind: string) {
  const gc = (globalThis as { gc?: () => void }).gc!;
  let url: string;
  let access = { token: 'baseline', tenant: 'baseline' };
  if (kind === 'baseline') {
    const { baselineListener, providersOf } = await import('./baseline-server.ts');
    const server = createServer(baselineListener(providersOf()));
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    url = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
  } else {
    const { serve } = await import('../app/serve.ts');
    const s = await serve({
      port: 0,
      rateLimit: false,
      stream: { limits: { maxClientsPerFeed: 20_000, maxClients: 40_000 } },
    } as Parameters<typeof serve>[0]);
    url = s.baseUrl;
    access = { token: s.token, tenant: s.tenant };
  }
  process.on('message', (m: string) => {
    if (m.startsWith('snapshot ')) {
      // --snapshots DIR: heap snapshots before and after, to see what a subscriber keeps.
      gc();
      process.send!({ file: v8.writeHeapSnapshot(m.slice(9)) });
      return;
    }
    if (m !== 'measure') return;
    void measureNow();
  });
  // --alloc: bytes allocated between the two measures (the subscriptions), by V8's sampling heap
  // profiler with collected objects included: what the requests put through the young generation.
  const session = process.argv.includes('--alloc') ? new Session() : undefined;
  session?.connect();
  let sampling = false;
  async function allocatedSinceLast(): Promise<number> {
    if (!session) return 0;
    if (!sampling) {
      await session.post('HeapProfiler.enable');
      await session.post('HeapProfiler.startSampling', {
        samplingInterval: 256,
        includeObjectsCollectedByMajorGC: true,
        includeObjectsCollectedByMinorGC: true,
      });
      sampling = true;
      return 0;
    }
    const { profile } = (await session.post('HeapProfiler.stopSampling')) as unknown as { profile: SampleNode };
    // Bytes by allocation site (function and line), the top ones on stderr: what to cut.
    const bySite = new Map<string, number>();
    const walk = (node: SampleNode['head']) => {
      const f = node.callFrame;
      const site = `${f.functionName || '(anonymous)'} ${f.url.replace(/^.*\/(simulator|node_modules)\//, '$1/')}:${f.lineNumber + 1}`;
      bySite.set(site, (bySite.get(site) ?? 0) + node.selfSize);
      for (const c of node.children) walk(c);
    };
    walk(profile.head);
    const top = [...bySite].sort((a, b) => b[1] - a[1]).slice(0, Number(process.env.SSE_MEMORY_SITES ?? 0));
    for (const [site, bytes] of top) process.stderr.write(`${kind} ${String(bytes).padStart(10)}  ${site}\n`);
    return [...bySite.values()].reduce((a, b) => a + b, 0);
  }
  async function measureNow() {
    const allocated = await allocatedSinceLast();
    // --no-gc: as the benchmark reads it (garbage not yet collected counts).
    if (!process.argv.includes('--no-gc')) {
      gc();
      gc();
    }
    const u = process.memoryUsage();
    if (process.env.SSE_MEMORY_SPACES)
      process.stderr.write(
        `${kind} ${v8
          .getHeapSpaceStatistics()
          .map(
            (x) => `${x.space_name} ${(x.space_size / 1048576).toFixed(1)}/${(x.space_used_size / 1048576).toFixed(1)}`,
          )
          .join(', ')}\n`,
      );
    if (process.env.SSE_MEMORY_SMAPS) {
      const { readFileSync } = await import('node:fs');
      const lines = readFileSync('/proc/self/smaps', 'utf8').split('\n');
      const by = new Map<string, number>();
      let name = '';
      for (const l of lines) {
        const m = /^[0-9a-f]+-[0-9a-f]+ \S+ \S+ \S+ \S+\s*(.*)$/.exec(l);
        if (m) name = m[1] || 'anon';
        else if (l.startsWith('Rss:')) by.set(name, (by.get(name) ?? 0) + Number(l.split(/\s+/)[1]));
      }
      process.stderr.write(
        `${kind} smaps ${[...by]
          .filter(([, v]) => v > 2048)
          .map(([k, v]) => `${k} ${(v / 1024).toFixed(1)}MB`)
          .join(', ')} heapTotal ${(u.heapTotal / 1048576).toFixed(1)} rss ${(u.rss / 1048576).toFixed(1)}\n`,
      );
    }
    process.send!({ heap: u.heapUsed, rss: u.rss, external: u.external + u.arrayBuffers, allocated } satisfies Memory);
  }
  process.send!({ url, ...access });
}

function subscribe(url: string, access: { token: string; tenant: string }): Promise<Socket> {
  const { port } = new URL(url);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), '127.0.0.1', () =>
      socket.write(
        `GET /api/public/v1/stream HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nAccept: text/event-stream\r\nAuthorization: Bearer ${access.token}\r\nx-service-tenant: ${access.tenant}\r\n\r\n`,
      ),
    );
    socket.once('data', (b: Buffer) =>
      /^HTTP\/1\.1 200/.test(b.toString('latin1', 0, 12))
        ? resolve(socket)
        : reject(new Error(b.toString('latin1', 0, 200))),
    );
    socket.once('error', reject);
  });
}

async function measure(kind: string, n: number) {
  const flags = ['--no-gc', '--alloc'].filter((f) => process.argv.includes(f));
  const child = fork(SELF, ['--child', kind, ...flags], {
    // The simulator with the Node flags of `npm run serve`; the bare listener as plain `node` runs it.
    execArgv: [
      '--expose-gc',
      ...(kind === 'simulator' ? SERVE_NODE_ARGS : []),
      ...(process.env.SSE_MEMORY_NODE_FLAGS ?? '').split(' ').filter(Boolean),
    ],
    stdio: ['ignore', 'ignore', 'inherit', 'ipc'],
  });
  const next = () => new Promise<Record<string, unknown>>((r) => child.once('message', (m) => r(m as never)));
  const info = (await next()) as { url: string; token: string; tenant: string };
  const sockets: Socket[] = [];
  try {
    // A first stream opened and closed, so lazily built parts are not charged to the subscribers.
    (await subscribe(info.url, info)).destroy();
    await new Promise((r) => setTimeout(r, 300));
    const snaps = process.argv.indexOf('--snapshots');
    const snap = async (name: string) => {
      if (snaps === -1) return;
      child.send(`snapshot ${process.argv[snaps + 1]}/${kind}-${name}.heapsnapshot`);
      await next();
    };
    await snap('before');
    child.send('measure');
    const before = (await next()) as unknown as Memory;
    while (sockets.length < n)
      sockets.push(
        ...(await Promise.all(
          Array.from({ length: Math.min(200, n - sockets.length) }, () => subscribe(info.url, info)),
        )),
      );
    await new Promise((r) => setTimeout(r, arg('--settle', 1000)));
    await snap('after');
    child.send('measure');
    const after = (await next()) as unknown as Memory;
    const per = (k: keyof Memory) => (after[k] - before[k]) / n / 1024;
    return { heap: per('heap'), rss: per('rss'), external: per('external'), allocated: after.allocated / n / 1024 };
  } finally {
    for (const s of sockets) s.destroy();
    child.kill();
  }
}

if (process.argv[2] === '--child') await childMain(process.argv[3]!);
else {
  const n = arg('--subscribers', 5000);
  const rounds = arg('--rounds', 2);
  for (let r = 0; r < rounds; r++) {
    for (const kind of ['simulator', 'baseline']) {
      const m = await measure(kind, n);
      process.stdout.write(
        `${kind.padEnd(9)} ${n} subscribers, ${process.argv.includes('--no-gc') ? 'no GC' : 'after full GC'}, per subscriber: heap ${m.heap.toFixed(2)} KB, external ${m.external.toFixed(2)} KB, RSS ${m.rss.toFixed(2)} KB${process.argv.includes('--alloc') ? `, allocated ${m.allocated.toFixed(2)} KB` : ''}\n`,
      );
    }
  }
}
