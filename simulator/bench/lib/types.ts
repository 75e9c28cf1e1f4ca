import type { ServerProcess } from './processes.ts';

/** Settings of one bench run (flags and environment). */
export interface BenchConfig {
  /** Short smoke run: fewer seconds, rounds and subscribers; targets are still evaluated but marked quick. */
  quick: boolean;
  /** Exit 1 when a target is missed. */
  strict: boolean;
  /** Measured seconds per HTTP scenario and side (split over `rounds`). */
  seconds: number;
  warmupSeconds: number;
  /** Alternating simulator/baseline rounds per scenario, so drift on a shared machine hits both. */
  rounds: number;
  connections: number;
  sseSubscribers: number;
  /** Only these scenario ids (all when empty). */
  only: string[];
  resultsDir: string;
}

export interface Machine {
  cpus: number;
  cpuModel: string;
  node: string;
  platform: string;
  totalMemoryMb: number;
  /** 1-minute load average at the start and the end: others' work on a shared machine shows here. */
  loadAverageStart: number;
  loadAverageEnd?: number;
}

/** What a scenario reports: numbers for the JSON, readable cells for the table. */
export interface ScenarioResult {
  id: string;
  title: string;
  status: 'ok' | 'not-available' | 'failed';
  /** Why the feature is missing or what went wrong (never a made-up number). */
  reason?: string;
  metrics: Record<string, number>;
  /** Table cells: the simulator's result, the baseline's, their ratio, latency, memory. */
  row?: { result: string; baseline?: string; ratio?: string; latency?: string; cpu?: string; memory?: string };
  notes?: string[];
  /** Extra rows (scaling tables), rendered under the main table. */
  details?: { title: string; header: string[]; rows: string[][] };
}

export interface BenchContext {
  config: BenchConfig;
  /** The shared bare node:http baseline (started on first use, stopped at the end). */
  baseline(): Promise<ServerProcess>;
  log(line: string): void;
}

/** One entry of the scenario list. `run` returns not-available itself when its feature is absent. */
export interface Scenario {
  id: string;
  title: string;
  /** One sentence: what is measured and how. */
  measures: string;
  run(ctx: BenchContext): Promise<ScenarioResult>;
}

export const notAvailable = (s: Pick<Scenario, 'id' | 'title'>, reason: string): ScenarioResult => ({
  id: s.id,
  title: s.title,
  status: 'not-available',
  reason,
  metrics: {},
});
