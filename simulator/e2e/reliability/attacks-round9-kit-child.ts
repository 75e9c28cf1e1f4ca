// Round 9: runs the conformance kit against a hostile deployment in its own process (the test starts it
// with a 512 MB heap and kills it after a deadline), and prints one line `RESULT {json}` with the run's
// verdict and the peak resident memory seen while it ran. Options come as JSON in argv[2].
import { runConformance } from '../../../conformance/index.ts';

const options = JSON.parse(process.argv[2] ?? '{}') as Record<string, unknown>;
if (typeof options.grep === 'string') options.grep = new RegExp(options.grep);
const mb = () => Math.round(process.memoryUsage().rss / 1024 / 1024);
const baseRssMb = mb();
let peakRssMb = baseRssMb;
const sampler = setInterval(() => {
  peakRssMb = Math.max(peakRssMb, mb());
}, 20);
try {
  const r = await runConformance(options);
  clearInterval(sampler);
  peakRssMb = Math.max(peakRssMb, mb());
  const results = r.results.map((c) => ({
    name: c.check.name,
    status: c.status,
    error: c.error,
    errorKind: c.errorKind,
    failures: c.failures.map((f) => JSON.stringify(f).slice(0, 600)),
  }));
  const protoKeys = Object.keys(Object.prototype);
  const out = { protoKeys, exitCode: r.exitCode, error: r.error, notices: r.notices, results, peakRssMb, baseRssMb };
  process.stdout.write(`RESULT ${JSON.stringify(out)}\n`);
  process.exit(0);
} catch (err) {
  clearInterval(sampler);
  process.stdout.write(`THREW ${err instanceof Error ? `${err.name}: ${err.message}` : String(err)}\n`);
  process.exit(3);
}
