import type { ConformanceOptions } from '../../runner/options.ts';
import { type RunResult, runConformance } from '../../runner/run.ts';
import { noWait } from '../targets.ts';
import { UNSEEN_LISTS, type UnseenViolation, unseenTarget } from './index.ts';

/**
 * The kit's catch rate over the unseen violations (./index.ts): each gets a fresh simulator behind the
 * proxy, and the kit runs twice, with only `--token --tenant` and with every option. A violation is
 * caught in a configuration when a check fails there that passes against the clean proxy; by a MUST
 * failure (exit 1) or only by an advisory SHOULD.
 */
export type Config = 'minimal' | 'full';
export interface UnseenVerdict {
  name: string;
  statement: string;
  /** Per configuration: the checks that newly failed, and whether a MUST was among them. */
  caught: Record<Config, { checks: string[]; must: boolean; observed: string[] }>;
}

const failed = (r: RunResult) =>
  r.results
    .filter((x) => x.status === 'fail')
    .map((x) => ({
      name: x.check.name,
      must: x.check.severity === 'MUST',
      observed: String(x.failures?.[0]?.observed ?? x.failures?.[0]?.expected ?? x.error ?? '').slice(0, 300),
    }));

async function runBoth(v: UnseenViolation | undefined, seed: number) {
  const target = await unseenTarget(v);
  try {
    const opts = (o: ConformanceOptions): ConformanceOptions => ({
      ...o,
      retry: noWait,
      seed,
      webhookTimeoutMs: 5000,
      streamTimeoutMs: 3000,
    });
    const minimal = await runConformance(opts(target.minimal));
    const full = await runConformance(opts(target.full));
    return { minimal: failed(minimal), full: failed(full) };
  } finally {
    await target.close();
  }
}

/**
 * @example const { verdicts, rate } = await scoreUnseen({ seed: 1 }); console.log(rate.full);
 */
export async function scoreUnseen(
  options: {
    seed?: number;
    only?: RegExp;
    /** Which list: round2 (the first 42, the default), round3, round4, round5 (later lists by fresh outsiders) or all. */
    list?: keyof typeof UNSEEN_LISTS;
    concurrency?: number;
    onVerdict?: (v: UnseenVerdict) => void;
  } = {},
) {
  const seed = options.seed ?? 1;
  const clean = await runBoth(undefined, seed);
  const baseline = { minimal: new Set(clean.minimal.map((f) => f.name)), full: new Set(clean.full.map((f) => f.name)) };
  const list = UNSEEN_LISTS[options.list ?? 'round2'].filter((v) => !options.only || options.only.test(v.name));
  const verdicts: UnseenVerdict[] = [];
  let next = 0;
  const worker = async () => {
    while (next < list.length) {
      const v = list[next++] as UnseenVerdict & UnseenViolation;
      const r = await runBoth(v, seed);
      const judge = (c: Config) => {
        const fresh = r[c].filter((f) => !baseline[c].has(f.name));
        return {
          checks: fresh.map((f) => f.name),
          must: fresh.some((f) => f.must),
          observed: fresh.map((f) => f.observed),
        };
      };
      const verdict = {
        name: v.name,
        statement: v.statement,
        caught: { minimal: judge('minimal'), full: judge('full') },
      };
      verdicts.push(verdict);
      options.onVerdict?.(verdict);
    }
  };
  await Promise.all(Array.from({ length: options.concurrency ?? 2 }, worker));
  const rate = (c: Config, must = false) =>
    verdicts.filter((v) => v.caught[c].checks.length && (!must || v.caught[c].must)).length;
  return {
    seed,
    baseline: clean,
    verdicts,
    total: list.length,
    rate: {
      minimal: rate('minimal'),
      full: rate('full'),
      minimalMust: rate('minimal', true),
      fullMust: rate('full', true),
    },
  };
}
