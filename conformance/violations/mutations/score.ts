import { httpTarget } from '../../e2e/targets.ts';
import { runConformance } from '../../runner/run.ts';
import { allMutants, type Mutant, mutantOptions } from './index.ts';

/** What the kit did with one mutant. */
export interface MutantResult {
  name: string;
  operator: string;
  description: string;
  /** The kit's verdict was not "conformant" (exit code 1: a MUST failed; 2: it could not judge). */
  killed: boolean;
  exitCode: number;
  /** The checks that failed (with failFast, the one that killed it: the run stopped there). */
  failed: string[];
}

export interface MutationScore {
  killed: number;
  total: number;
  score: number;
  results: MutantResult[];
  survivors: MutantResult[];
  seed: number;
}

export interface ScoreOptions {
  /** Only these mutants (default all). */
  mutants?: Mutant[];
  /** Mutants judged at once, each against its own simulator (default 2). */
  concurrency?: number;
  /** The kit's seed for every run (default 1: a score is reproducible). */
  seed?: number;
  /**
   * Stop each mutant's run at its first failed MUST check (default true): that decides "killed" (exit 1),
   * so the rest of the run cannot change the score. false runs every check, to list all that catch it.
   */
  failFast?: boolean;
  onResult?: (r: MutantResult, done: number, total: number) => void;
}

/**
 * Runs the kit against a simulator carrying `m`; killed unless the verdict is "conformant". With failFast
 * (default) the run stops at the first failed MUST check, which already makes the verdict "not conformant".
 */
export async function judgeMutant(m: Mutant, seed = 1, failFast = true): Promise<MutantResult> {
  const target = await httpTarget(mutantOptions(m));
  try {
    const r = await runConformance({ ...target.kit, seed, failFast });
    const failed = r.results.filter((x) => x.status === 'fail').map((x) => x.check.name);
    return {
      name: m.name,
      operator: m.operator,
      description: m.description,
      killed: r.exitCode !== 0,
      exitCode: r.exitCode,
      failed,
    };
  } finally {
    await target.close();
  }
}

/**
 * The kit's mutation score: the share of generated mutants its verdict rejects.
 * @example const { score, survivors } = await mutationScore({ mutants: allMutants().slice(0, 5) });
 */
export async function mutationScore(o: ScoreOptions = {}): Promise<MutationScore> {
  const mutants = o.mutants ?? allMutants();
  const seed = o.seed ?? 1;
  const results: MutantResult[] = new Array(mutants.length);
  let done = 0;
  // One iterator shared by the workers: each takes the next mutant, so none is judged twice.
  const queue = mutants.entries();
  const worker = async () => {
    for (const [i, mutant] of queue) {
      const result = await judgeMutant(mutant, seed, o.failFast ?? true);
      results[i] = result;
      o.onResult?.(result, ++done, mutants.length);
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, o.concurrency ?? 2) }, worker));
  const killed = results.filter((r) => r.killed).length;
  return {
    killed,
    total: results.length,
    score: results.length ? killed / results.length : 1,
    results,
    survivors: results.filter((r) => !r.killed),
    seed,
  };
}
