// Round 9: runs the conformance kit against hostile deployments in its own process, one run per message
// (the test file's worker: simulator/e2e/reliability/attacks-round9-hostile.ts starts it with a 512 MB heap
// and kills it at a run's deadline). Each run answers `{ result }` with its verdict and the peak resident
// memory seen while it ran, measured from the memory left after a full collection before it started.
import { enableCompileCache } from 'node:module';
import { enableUserCompileCache } from '../../package/compile-cache.js';

// The user's compile cache, as `ncs` itself uses it: compiling the kit's modules afresh in each child
// cost about 0.3 s of CPU more than reading them from the cache.
enableUserCompileCache(enableCompileCache);
const { runConformance } = await import('../../../conformance/index.ts');

const mb = () => Math.round(process.memoryUsage().rss / 1024 / 1024);
const collect = (globalThis as { gc?: () => void }).gc ?? (() => undefined);

/** One kit run: its verdict in the form the tests read, and the memory it took. */
async function runOnce(options: Record<string, unknown>): Promise<unknown> {
  if (typeof options.grep === 'string') options.grep = new RegExp(options.grep);
  // What the runs before left behind is collected first, so a run's growth is its own.
  collect();
  collect();
  const baseRssMb = mb();
  let peakRssMb = baseRssMb;
  const sampler = setInterval(() => {
    peakRssMb = Math.max(peakRssMb, mb());
  }, 20);
  try {
    const r = await runConformance(options);
    peakRssMb = Math.max(peakRssMb, mb());
    const results = r.results.map((c) => ({
      name: c.check.name,
      status: c.status,
      error: c.error,
      errorKind: c.errorKind,
      failures: c.failures.map((f) => JSON.stringify(f).slice(0, 600)),
    }));
    const protoKeys = Object.keys(Object.prototype);
    return {
      result: { protoKeys, exitCode: r.exitCode, error: r.error, notices: r.notices, results, peakRssMb, baseRssMb },
    };
  } catch (err) {
    return { threw: err instanceof Error ? `${err.name}: ${err.message}` : String(err) };
  } finally {
    clearInterval(sampler);
  }
}

process.on('message', (message: { options: Record<string, unknown> }) => {
  void runOnce(message.options).then((answer) => process.send?.(answer));
});
process.on('disconnect', () => process.exit(0));
