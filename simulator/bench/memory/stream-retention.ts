// Bounded memory for the status stream: N domain events through a sandbox's event bus (the stream's
// feeds listen there, as do the audit trail and webhooks); the heap must stop growing once the
// retention window is full. Runs only when the route table has the stream.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { createSandbox } from '../../app/sandbox.ts';
import { count, mb } from '../lib/format.ts';
import { ROOT } from '../lib/processes.ts';
import { notAvailable, type Scenario, type ScenarioResult } from '../lib/types.ts';
import { streamRoute } from '../scenarios/sse-fanout.ts';
import { retained, runMemoryChild, type MemoryPoint } from './measure.ts';

const SELF = fileURLToPath(import.meta.url);

/** A retained message costs far more than this; growth below it means nothing is kept past the window. */
export const MAX_GROWTH_BYTES_PER_MESSAGE = 16;

interface Result {
  messages: number;
  seconds: number;
  retention?: number;
  points: MemoryPoint[];
}

/** The stream's retention window, when the simulator's defaults name one. */
async function retentionWindow(): Promise<number | undefined> {
  const file = join(ROOT, 'simulator/contract/simulator-defaults.ts');
  if (!existsSync(file)) return undefined;
  const mod = (await import(pathToFileURL(file).href)) as { STREAM_DEFAULTS?: { retention?: number } };
  return mod.STREAM_DEFAULTS?.retention;
}

async function child(messages: number, budgetMs: number): Promise<Result> {
  const sandbox = createSandbox({ activationDelayMs: 0 });
  await sandbox.ready;
  const tenant = sandbox.state.fixtures.tenants[0]!.id;
  const points: MemoryPoint[] = [retained(0)];
  const started = performance.now();
  let i = 0;
  for (; i < messages && performance.now() - started < budgetMs; i++) {
    const id = `con_${i.toString(36).padStart(16, '0')}`;
    sandbox.state.events.emit({
      type: 'connection.state_changed',
      tenant,
      actor: 'bench',
      requestId: `req_${i}`,
      at: Date.now(),
      target: { type: 'connection', id },
      data: {
        from: 'active',
        to: 'paused',
        connection: {
          id,
          connectorId: 'tillcraft-pos-cloud',
          environment: 'sandbox',
          scopeLabel: 'Harbour Kitchen Pier 4',
          state: 'paused',
        },
      },
    });
    if ((i + 1) % Math.max(1, Math.floor(messages / 8)) === 0) points.push(retained(i + 1));
  }
  return {
    messages: i,
    seconds: (performance.now() - started) / 1000,
    points,
    ...(await retentionWindow().then((r) => (r ? { retention: r } : {}))),
  };
}

export const streamMemoryScenario: Scenario = {
  id: 'memory-stream',
  title: 'Memory: 1,000,000 stream messages',
  measures: `Domain events through the sandbox's event bus (no subscribers, no HTTP); heap after a full GC every eighth; growth from a quarter (at least 200,000) to the end must stay under ${MAX_GROWTH_BYTES_PER_MESSAGE} bytes per message (only the retention window kept).`,
  async run(ctx): Promise<ScenarioResult> {
    if (!streamRoute())
      return notAvailable(
        this,
        'the route table has no SSE route (the status stream is being built on another branch)',
      );
    const messages = ctx.config.quick ? 400_000 : 1_000_000;
    const r = await runMemoryChild<Result>(SELF, [String(messages), '240000'], 300_000);
    const last = r.points.at(-1)!;
    // Reference: a quarter of the way, and past 200,000 so every bounded listener (the audit chain keeps
    // 100,000 entries per tenant) is full; from there on nothing may grow.
    const quarter = r.points.find((p) => p.n >= Math.max(r.messages / 4, 200_000)) ?? last;
    const growth = ((last.heapUsedMb - quarter.heapUsedMb) * 1024 * 1024) / Math.max(1, last.n - quarter.n);
    const result: ScenarioResult = {
      id: this.id,
      title: this.title,
      status: r.messages === messages ? 'ok' : 'failed',
      metrics: {
        messages: r.messages,
        seconds: r.seconds,
        heapUsedMb: last.heapUsedMb,
        rssMb: last.rssMb,
        growthBytesPerMessage: growth,
        maxGrowthBytesPerMessage: MAX_GROWTH_BYTES_PER_MESSAGE,
        ...(r.retention ? { retention: r.retention } : {}),
      },
      row: {
        result: `${count(r.messages)} messages in ${r.seconds.toFixed(1)} s${r.retention ? ` (retention ${count(r.retention)})` : ''}`,
        memory: `heap ${mb(last.heapUsedMb * 1024 * 1024)}, ${growth.toFixed(1)} B per message after the first quarter (or 200,000)`,
      },
      details: {
        title: 'Stream messages: memory as messages grow',
        header: ['messages', 'RSS MB', 'heap MB'],
        rows: r.points.map((p) => [count(p.n), p.rssMb.toFixed(1), p.heapUsedMb.toFixed(1)]),
      },
    };
    if (r.messages !== messages) result.reason = `stopped after ${count(r.messages)} messages: time budget spent`;
    return result;
  },
};

if (import.meta.main && process.argv[2] === '--child') {
  process.stdout.write(`${JSON.stringify(await child(Number(process.argv[3]), Number(process.argv[4])))}\n`);
}
