import { api, auth, CONNECTION } from './unnamed-kit.ts';
import { seeded, uuid } from './unnamed4-kit.ts';
import { sleeper } from './unnamed6-kit.ts';
import type { AmbiguousClient8 } from './unnamed8-ambiguous.ts';
import { get } from './unnamed8-kit.ts';
import { createWith } from './unnamed11-kit.ts';

/**
 * Round 17, cases the interface does not decide: the rules' verdict today is stated (`judged`: the rules
 * failed), not claimed right or wrong. A change of rule that moves one must say why.
 */
export const AMBIGUOUS_17: AmbiguousClient8[] = [
  {
    does: 'is a Puppet resource whose agent run every 30 minutes re-asserts a venue by sending its create again under the resource-title key (replayed each time)',
    why: '"the same key with the same content returns the same response again" makes the re-assertion harmless, yet "retry only after rate_limited and internal" and "use a new key for each new operation" leave open whether a convergence run repeating a succeeded create is a repeat after a 2xx (beyond the 120 s in which a repeat is looked for, it is not judged)',
    judged: [],
    async run(t) {
      const a = auth(t, undefined, 3_600 * 3);
      const body = { ...CONNECTION, scopeLabel: 'Manifest Meze House' };
      for (let run = 0; run < 4; run++) {
        await createWith(t, a, body, 'puppet-ncs_connection-manifest-meze');
        await sleeper(t)(30 * 60_000);
      }
    },
  },
  {
    does: 'is a Tauri app whose webview calls tauri-plugin-http’s fetch (sent by the Rust core) with a token it holds in JS; the plugin adds Origin: tauri://localhost',
    why: '"Access credentials stay in the partner\'s backend and are never sent from a browser": the request leaves from the native process (no browser networking, no CORS), but the token lives in the webview\'s JavaScript; whether that is a browser the interface does not say, and the rules see Authorization beside an Origin',
    judged: ['auth.no-browser-credentials'],
    async run(t) {
      const a = auth(t);
      await api(t, a, 'GET', '/connections', { headers: { origin: 'tauri://localhost' } });
    },
  },
  {
    does: 'is a Power Automate flow whose "run after: has failed" branch fixes a create refused 400 (scopeLabel too long) and sends it again 5 s later under the same key',
    why: '"The same key with different content yields idempotency_conflict": the first content was refused before it became an operation (400), so whether its key was used, and the corrected create must take a new one, the interface does not say; the service answers the corrected create normally',
    judged: ['idempotency.one-key-one-content'],
    async run(t) {
      const a = auth(t);
      const key = `flow-run-${uuid(seeded(1783))}`;
      const tooLong = { ...CONNECTION, scopeLabel: 'L'.repeat(130) };
      const r = await createWith(t, a, tooLong, key);
      if (r.status !== 400) throw new Error(`answered ${r.status}`);
      await sleeper(t)(5_000);
      await createWith(t, a, { ...CONNECTION, scopeLabel: 'Corrected Curry Corner' }, key);
      await get(t, a, '/connections');
    },
  },
  {
    does: 'is a Ray actor crashing three times in 30 s (max_restarts 3), each restarted actor fetching a new 1 h token before its first read',
    why: '"Tokens are short-lived and are renewed, not extended": a restarted actor holds no token to reuse (its memory went with the crash), yet one client replaced three tokens within a run of calls with most of their lifetime left; whether a crash loop is churn or three new runs the interface does not say',
    judged: ['auth.token-reused'],
    async run(t) {
      for (let life = 0; life < 4; life++) {
        const a = auth(t, undefined, 3_600);
        await get(t, a, '/connections');
        await sleeper(t)(2_000);
        await get(t, a, '/providers');
        await sleeper(t)(8_000);
      }
    },
  },
];
