// Bounded memory for idempotency records: N distinct keys through the idempotency middleware and the
// store (the same code as POST /connections, without HTTP: a million HTTP calls would take minutes).
import { fileURLToPath } from 'node:url';
import { ROUTE_BY_ID } from '../../contract/route-table.ts';
import type { ContextWith } from '../../core/step.ts';
import { ok } from '../../core/reply.ts';
import { idempotencyStep } from '../../middleware/idempotency.ts';
import { createClock } from '../../lib/clock.ts';
import { createIdempotencyService } from '../../services/idempotency-service.ts';
import { createIdempotencyStore } from '../../state/idempotency-store.ts';
import { count, mb } from '../lib/format.ts';
import type { Scenario, ScenarioResult } from '../lib/types.ts';
import { retained, runMemoryChild, type MemoryPoint } from './measure.ts';

const SELF = fileURLToPath(import.meta.url);

/**
 * The documented cap: a process's RSS stays under 100 MB plus 2.5 KB per record the store may keep
 * (maxRecords; default 200,000 -> 588 MB), however many keys pass through. A record with its stored
 * connection answer takes about 0.9 KB of heap; the rest is V8's young generation and pages freed
 * by the collector that the kernel has not taken back yet.
 */
export const idempotencyRssCapMb = (maxRecords: number) => 100 + (maxRecords * 2.5) / 1024;

interface Result {
  keys: number;
  maxRecords: number;
  records: number;
  seconds: number;
  points: MemoryPoint[];
}

async function child(keys: number, budgetMs: number): Promise<Result> {
  const store = createIdempotencyService({ repository: createIdempotencyStore(), clock: createClock() });
  const step = idempotencyStep(store);
  const route = ROUTE_BY_ID.get('createConnection');
  if (!route) throw new Error('the route table has no createConnection');
  const body = {
    connectorId: 'tillcraft-pos-cloud',
    environment: 'sandbox',
    scopeLabel: 'Harbour Kitchen Pier 4',
    capabilities: ['orders.read', 'menu.read'],
  };
  const points: MemoryPoint[] = [retained(0)];
  const started = performance.now();
  let i = 0;
  for (; i < keys && performance.now() - started < budgetMs; i++) {
    const ctx: ContextWith<'route' | 'access' | 'idempotencyKey' | 'body'> = {
      req: { method: 'POST', path: route.path, query: {}, headers: {} },
      requestId: `req_${i}`,
      at: Date.now(),
      version: '2026-07-01',
      route,
      params: {},
      query: {},
      body,
      responseHeaders: {},
      idempotencyKey: `bench-key-${i.toString(36).padStart(8, '0')}`,
      access: {
        tenant: 'harbour-kitchens',
        token: {
          clientId: 'harbour-backend',
          tenants: ['harbour-kitchens'],
          scopes: [],
          environment: 'sandbox',
          issuedAt: 0,
          expiresAt: 0,
        },
      },
    };
    await step.run(ctx, async () =>
      ok({
        id: `con_${i.toString(36).padStart(16, '0')}`,
        connectorId: body.connectorId,
        environment: 'sandbox',
        scopeLabel: body.scopeLabel,
        state: 'pending',
        capabilities: body.capabilities.map((capability) => ({
          capability,
          critical: false,
          idempotencyRequired: false,
        })),
        nextStep:
          'Wait for activation; the status stream announces connection.state_changed when the connection is active.',
        createdAt: new Date(ctx.at).toISOString(),
        updatedAt: new Date(ctx.at).toISOString(),
      }),
    );
    if ((i + 1) % 100_000 === 0 || i + 1 === keys) points.push(retained(i + 1));
  }
  return {
    keys: i,
    maxRecords: store.options.maxRecords,
    records: await store.size(),
    seconds: (performance.now() - started) / 1000,
    points,
  };
}

export const idempotencyMemoryScenario: Scenario = {
  id: 'memory-idempotency',
  title: 'Memory: 1,000,000 idempotency keys',
  measures:
    'Distinct keys through the idempotency middleware and store (no HTTP), RSS and heap after a full GC every 100,000 keys; RSS must stay under 100 MB + 2.5 KB x maxRecords and the heap must stop growing.',
  async run(ctx): Promise<ScenarioResult> {
    const keys = ctx.config.quick ? 400_000 : 1_000_000;
    const r = await runMemoryChild<Result>(SELF, [String(keys), '240000'], 300_000);
    const last = r.points.at(-1)!;
    const peak = Math.max(...r.points.map((p) => p.rssMb));
    const capMb = idempotencyRssCapMb(r.maxRecords);
    // Past the cap on records the heap must stay flat: compare the last point with the first one
    // well past the cap (1.5 x maxRecords), when eviction has long been running.
    const mid = r.points.find((p) => p.n >= r.maxRecords * 1.5) ?? last;
    const result: ScenarioResult = {
      id: this.id,
      title: this.title,
      status: r.keys === keys ? 'ok' : 'failed',
      metrics: {
        keys: r.keys,
        records: r.records,
        maxRecords: r.maxRecords,
        rssMb: last.rssMb,
        peakRssMb: peak,
        heapUsedMb: last.heapUsedMb,
        capMb,
        seconds: r.seconds,
        heapGrowthPct: ((last.heapUsedMb - mid.heapUsedMb) / mid.heapUsedMb) * 100,
      },
      row: {
        result: `${count(r.keys)} keys in ${r.seconds.toFixed(1)} s; ${count(r.records)} records kept (max ${count(r.maxRecords)})`,
        memory: `RSS ${mb(last.rssMb * 1024 * 1024)} (peak ${mb(peak * 1024 * 1024)}, cap ${capMb.toFixed(0)} MB), heap ${mb(last.heapUsedMb * 1024 * 1024)}`,
      },
      details: {
        title: 'Idempotency records: memory as keys grow',
        header: ['keys', 'RSS MB', 'heap MB'],
        rows: r.points.map((p) => [count(p.n), p.rssMb.toFixed(1), p.heapUsedMb.toFixed(1)]),
      },
    };
    if (r.keys !== keys) result.reason = `stopped after ${count(r.keys)} keys: time budget spent`;
    return result;
  },
};

if (import.meta.main && process.argv[2] === '--child') {
  process.stdout.write(`${JSON.stringify(await child(Number(process.argv[3]), Number(process.argv[4])))}\n`);
}
