import { runConformance } from './conformance/runner/run.ts';
import { noWait } from './conformance/e2e/targets.ts';
import { UNSEEN_LISTS, unseenTarget } from './conformance/e2e/unseen/index.ts';
const name = process.argv[2];
const v = name ? UNSEEN_LISTS.all.find((x) => x.name === name) : undefined;
const t = await unseenTarget(v);
for (const cfg of (process.argv[3] ?? 'minimal').split(',') as ('minimal' | 'full')[]) {
  const r = await runConformance({ ...t[cfg], retry: noWait, seed: 1, webhookTimeoutMs: 5000 });
  for (const x of r.results) {
    if (x.status === 'fail' || (process.argv[4] && x.check.name.includes(process.argv[4])))
      console.log(cfg, x.status, x.check.name, JSON.stringify((x as any).failures ?? (x as any).notes ?? x).slice(0, 1500));
  }
}
await t.close();
