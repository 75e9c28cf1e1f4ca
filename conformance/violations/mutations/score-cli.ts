// `npm run mutation-score [-- --operator <name>] [--concurrency <n>] [--seed <n>] [--all-checks]`: the kit against
// every generated mutant. Each run stops at its first failed MUST (the mutant is killed then); --all-checks
// runs every check, to list all the checks that catch each mutant.
import { parseArgs } from 'node:util';
import { allMutants } from './index.ts';
import { mutationScore } from './score.ts';

const { values } = parseArgs({
  options: {
    operator: { type: 'string' },
    concurrency: { type: 'string' },
    seed: { type: 'string' },
    quiet: { type: 'boolean' },
    'all-checks': { type: 'boolean' },
  },
});
const mutants = allMutants().filter((m) => !values.operator || m.operator === values.operator);
const started = performance.now();
const s = await mutationScore({
  mutants,
  ...(values.concurrency ? { concurrency: Number(values.concurrency) } : {}),
  ...(values.seed ? { seed: Number(values.seed) } : {}),
  failFast: !values['all-checks'],
  onResult: (r, done, total) => {
    if (!values.quiet)
      process.stdout.write(
        `${String(done).padStart(4)}/${total} ${r.killed ? 'killed  ' : 'SURVIVED'} ${r.name}${r.killed ? ` (${r.failed.slice(0, 3).join(', ')}${r.failed.length > 3 ? ', …' : ''})` : ''}\n`,
      );
  },
});
const operators = [...new Set(s.results.map((r) => r.operator))];
process.stdout.write('\nby operator:\n');
for (const op of operators) {
  const rs = s.results.filter((r) => r.operator === op);
  process.stdout.write(`  ${op.padEnd(18)} ${rs.filter((r) => r.killed).length}/${rs.length}\n`);
}
process.stdout.write(
  `\nsurvivors (${s.survivors.length}):\n${s.survivors.map((r) => `  ${r.name}: ${r.description}`).join('\n') || '  none'}\n`,
);
process.stdout.write(
  `\nmutation score ${s.killed}/${s.total} = ${(s.score * 100).toFixed(1)} % (seed ${s.seed}, ${((performance.now() - started) / 1000).toFixed(0)} s)\n`,
);
process.exit(s.score >= 0.95 ? 0 : 1);
