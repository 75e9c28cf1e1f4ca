import { coverageLine } from '../runner/coverage.ts';
import { type CheckResult, type RunEvent, stoppedLine } from '../runner/events.ts';
import { failureLines, plural, type Reporter } from './reporter.ts';
import { escapeControl as safe } from './terminal-escape.ts';

export interface ConsoleReporterOptions {
  write?: (text: string) => void;
  /** Default: only when stdout is a terminal and NO_COLOR is unset. */
  color?: boolean;
  /** Print the start of each failing response too. */
  verbose?: boolean;
}

/** https://no-color.org: any non-empty NO_COLOR turns colours off; FORCE_COLOR turns them on. */
export function shouldUseColor(
  stream: { isTTY?: boolean } = process.stdout,
  env: Record<string, string | undefined> = process.env,
): boolean {
  if (env.NO_COLOR !== undefined && env.NO_COLOR !== '') return false;
  if (env.FORCE_COLOR !== undefined && env.FORCE_COLOR !== '0') return true;
  return stream.isTTY === true;
}

const paint = (on: boolean) => {
  const wrap = (code: number) => (s: string) => (on ? `\x1b[${code}m${s}\x1b[0m` : s);
  return { red: wrap(31), green: wrap(32), yellow: wrap(33), dim: wrap(2), bold: wrap(1) };
};

const ms = (n: number) => (n >= 1000 ? `${(n / 1000).toFixed(1)} s` : `${Math.round(n)} ms`);

/**
 * Progress while the run goes (one line per finished check), then the results grouped by area with
 * every failure's evidence, then a summary line with the exit code.
 * @example runConformance({ ...opts, onEvent: createConsoleReporter().onEvent })
 */
export function createConsoleReporter(opts: ConsoleReporterOptions = {}): Reporter {
  const write = opts.write ?? ((t: string) => void process.stdout.write(t));
  const c = paint(opts.color ?? shouldUseColor());
  const line = (t = '') => write(`${t}\n`);
  const mark = (r: CheckResult) => {
    if (r.status === 'pass') return c.green('✓');
    if (r.status === 'skip') return c.dim('-');
    return r.check.severity === 'MUST' || r.error ? c.red('✗') : c.yellow('!');
  };

  function progress(r: CheckResult) {
    const tail = r.status === 'skip' ? c.dim(` skipped: ${safe(r.reason ?? '')}`) : c.dim(` ${ms(r.durationMs)}`);
    const label = r.status === 'fail' ? ` ${r.check.severity === 'MUST' ? c.red('MUST') : c.yellow('SHOULD')}` : '';
    line(`  ${mark(r)} ${r.check.name}${label}${tail}`);
  }

  function details(r: CheckResult) {
    line(`  ${mark(r)} ${c.bold(r.check.name)} ${c.dim(`[${r.check.severity} · interface § ${r.check.section}]`)}`);
    line(`      ${r.check.title}`);
    // Everything below may carry a deployment's text (codes, messages, request ids, bodies): escaped.
    if (r.error) line(`      ${c.red('could not complete:')} ${safe(r.error.split('\n')[0] ?? '')}`);
    for (const f of r.failures) {
      for (const [k, v] of failureLines(f))
        if (k !== 'response' || opts.verbose) line(`      ${c.dim(`${k}:`.padEnd(11))} ${safe(v)}`);
      line();
    }
    for (const n of r.notes) line(`      ${c.dim(`note: ${safe(n)}`)}`);
  }

  function results(all: CheckResult[]) {
    line();
    line(c.bold('Results by area'));
    const areas = [...new Set(all.map((r) => r.check.area))];
    for (const area of areas) {
      const inArea = all.filter((r) => r.check.area === area);
      const count = (s: CheckResult['status']) => inArea.filter((r) => r.status === s).length;
      const failed = count('fail');
      const notRun = inArea.filter((r) => r.notRun).length;
      const skipped = count('skip') - notRun;
      const head = `${area}: ${count('pass')} passed${failed ? `, ${failed} failed` : ''}${skipped ? `, ${skipped} skipped` : ''}${notRun ? `, ${notRun} not run` : ''}`;
      line(failed ? c.red(head) : c.green(head));
      for (const r of inArea.filter((x) => x.status === 'fail')) details(r);
    }
  }

  let started = false;
  return {
    name: 'console',
    onEvent(e: RunEvent) {
      switch (e.type) {
        case 'run-start': {
          started = true;
          const t = e.target;
          line(c.bold(safe(`ncs conformance ${e.runId}: ${t.baseUrl}${t.altBaseUrl ? ` (+ ${t.altBaseUrl})` : ''}`)));
          line(
            c.dim(
              safe(
                `  tenant ${t.tenant ?? '-'} · credentials ${t.credentials} · environment ${t.environment ?? 'unknown'} · profile ${e.profile}${e.allowMutations ? '' : ' (no modifying calls)'} · ${plural(e.checks.length, 'check')}${e.seed !== undefined ? ` · seed ${e.seed}` : ''}`,
              ),
            ),
          );
          break;
        }
        case 'check-pass':
        case 'check-fail':
        case 'check-skip':
          progress(e.result);
          break;
        case 'run-end': {
          // A run that never started (usage error, target unreachable) is reported by the caller on stderr.
          if (!started) break;
          if (e.results.length) results(e.results);
          const s = e.summary;
          const cov = s.coverage;
          line();
          for (const n of e.notices ?? []) line(c.dim(`notice: ${safe(n)}`));
          if (e.error) line(c.red(`error: ${safe(e.error)}`));
          if (e.stopped) line(c.yellow(stoppedLine(e.stopped)));
          // What was judged comes first: a verdict over a few checks is not a verdict over the interface.
          line(c.bold(coverageLine(cov)));
          // A third unjudged for want of credentials is worth saying: the run judged the public surface only.
          if (cov.skippedForCredentials > cov.total / 3)
            line(
              c.yellow(
                `${cov.skippedForCredentials} of ${cov.total} checks were skipped for lack of credentials: pass --tenant with --token, or --client-id and --client-secret, to judge them`,
              ),
            );
          if (cov.requirement && !cov.requirement.met)
            line(
              c.red(
                `too little coverage: --require ${safe(cov.requirement.wanted)}: ${safe(cov.requirement.shortfall ?? '')}`,
              ),
            );
          const parts = [
            `${s.passed} passed`,
            `${s.mustFailed} MUST failed`,
            `${s.shouldFailed} advisory warning${s.shouldFailed === 1 ? '' : 's'}`,
            `${s.skipped - s.notRun} skipped`,
            ...(s.notRun ? [`${s.notRun} not run`] : []),
          ];
          const verdict =
            e.exitCode === 0
              ? c.green(cov.judged < cov.total ? 'conformant in what was judged' : 'conformant')
              : e.exitCode === 1
                ? c.red(s.mustFailed > 0 ? 'not conformant' : 'too little judged')
                : c.red('no verdict');
          line(`${verdict}: ${parts.join(', ')} in ${ms(e.durationMs)} (exit code ${e.exitCode})`);
          break;
        }
        default:
          break;
      }
    },
    done: async () => undefined,
  };
}
