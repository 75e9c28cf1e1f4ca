import { parseArgs } from 'node:util';
import { UNSEEN_LISTS } from './index.ts';
import { scoreUnseen } from './score.ts';

// npm run unseen-score [-- --list round2|round3|round4|round5|all] [--only <regex>] [--verbose: what each new failure observed] [--seed <n>] [--concurrency <n>]: the kit against every unseen
// violation of the proxy, with only --token --tenant and with every option; exit 1 when one gets through.
const { values } = parseArgs({
  options: {
    verbose: { type: 'boolean' },
    list: { type: 'string' },
    only: { type: 'string' },
    seed: { type: 'string' },
    concurrency: { type: 'string' },
  },
});
const lists = Object.keys(UNSEEN_LISTS) as (keyof typeof UNSEEN_LISTS)[];
const list = lists.find((l) => l === (values.list ?? 'round2'));
if (!list) {
  console.error(`--list must be one of ${lists.join(', ')}`);
  process.exit(2);
}
const started = Date.now();
const result = await scoreUnseen({
  list,
  ...(values.only ? { only: new RegExp(values.only) } : {}),
  seed: values.seed ? Number(values.seed) : 1,
  concurrency: values.concurrency ? Number(values.concurrency) : 2,
  onVerdict(v) {
    const show = (c: 'minimal' | 'full') =>
      v.caught[c].checks.length ? `${v.caught[c].must ? 'MUST' : 'SHOULD'} ${v.caught[c].checks.join(',')}` : 'MISSED';
    console.log(`${v.name}\n  minimal: ${show('minimal')}\n  full:    ${show('full')}`);
    if (values.verbose)
      for (const c of ['minimal', 'full'] as const)
        for (const [i, name] of v.caught[c].checks.entries())
          console.log(`    ${c} ${name}: ${v.caught[c].observed[i]}`);
  },
});
const base = (c: 'minimal' | 'full') => result.baseline[c].map((f) => f.name).join(', ') || 'none';
console.log(`clean proxy failures (baseline): minimal ${base('minimal')}; full ${base('full')}`);
const missed = (c: 'minimal' | 'full') => result.verdicts.filter((v) => !v.caught[c].checks.length).map((v) => v.name);
const { rate, total } = result;
console.log(`missed with --token --tenant: ${missed('minimal').join(', ') || 'none'}`);
console.log(`missed with every option: ${missed('full').join(', ') || 'none'}`);
console.log(
  `unseen catch rate (${list}, seed ${result.seed}, ${Math.round((Date.now() - started) / 1000)} s): ` +
    `--token --tenant ${rate.minimal}/${total} (${rate.minimalMust} by a MUST), ` +
    `every option ${rate.full}/${total} (${rate.fullMust} by a MUST)`,
);
process.exitCode = rate.full === total ? 0 : 1;
