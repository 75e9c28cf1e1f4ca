import { createHmac, timingSafeEqual } from 'node:crypto';
import { auth, CONNECTION, fault, publish, readStream } from './unnamed-kit.ts';
import { checkReceiver } from './unnamed-run.ts';
import { sleeper } from './unnamed6-kit.ts';
import type { AmbiguousClient8 } from './unnamed8-ambiguous.ts';
import { get, ok } from './unnamed8-kit.ts';
import { createWith } from './unnamed11-kit.ts';
import { readsOn } from './unnamed25-kit.ts';

/**
 * Round 25, cases the interface does not decide: the rules' verdict today is stated (`judged`: the rules
 * failed), not claimed right or wrong. A change of rule that moves one must say why.
 */
export const AMBIGUOUS_25: AmbiguousClient8[] = [
  {
    does: 'confirms a create by sending it again under its key 30 s after its success (there is no GET of one connection), reading meta.replayed',
    why: '"the same key with the same content returns the same response again": the interface offers replay as the way to learn an outcome, but no read of one connection; the rules take a keyed create sent again after a success within 120 s for a repeat after a 2xx',
    judged: ['retry.only-after-failure'],
    async run(t) {
      const a = auth(t);
      const body = { ...CONNECTION, scopeLabel: 'Confirm Calzone' };
      ok('create', await createWith(t, a, body, 'confirm-replay-2f9d0c1a'));
      await sleeper(t)(30_000);
      const again = await createWith(t, a, body, 'confirm-replay-2f9d0c1a');
      if (again.json?.meta?.replayed !== true) throw new Error(`again ${again.status}`);
    },
  },
  {
    does: 'is a projection rebuilt from scratch: cut after three messages, its new pod reads from cursor 0 again 6 minutes later',
    why: '"resumes without gaps by sending ... (last number read)": reading everything again leaves no gap, and a rebuild is no resumption; past the 5-minute reconnect window the rules do not take it for one',
    judged: [],
    async run(t) {
      const a = auth(t);
      fault(t, { kind: 'stream_cut', afterMessages: 3, count: 1 });
      const ids = await readStream(t, a, { onOpen: () => publish(t, a.tenant, 3) });
      if (ids.length !== 3) throw new Error(`read ${ids.length}`);
      await sleeper(t)(360_000);
      await readStream(t, auth(t), { cursor: 0, idleMs: 600 });
    },
  },
  {
    does: 'is a receiver accepting v1 as lowercase hex or as base64 of the same HMAC (migrating from another provider), constant time, 300 s window',
    why: '"written as lowercase hex": a second encoding of the genuine HMAC forges nothing, but the receiver takes a header the sender never writes; the receiver check sends no base64 case',
    judged: [],
    async run(t) {
      const verify = (raw: Buffer, h: string | undefined, secret: string) => {
        const parts = Object.fromEntries((h ?? '').split(',').map((p) => p.trim().split('=', 2) as [string, string]));
        const t0 = parts.t ?? '';
        const sent =
          (h ?? '')
            .split(',')
            .find((p) => p.trim().startsWith('v1='))
            ?.trim()
            .slice(3) ?? '';
        if (!/^\d+$/.test(t0) || Math.abs(Date.now() / 1000 - Number(t0)) > 300) return false;
        const mac = createHmac('sha256', secret).update(`${t0}.`).update(raw).digest();
        const eq = (x: string, y: string) =>
          x.length === y.length && timingSafeEqual(Buffer.from(x, 'utf8'), Buffer.from(y, 'utf8'));
        return eq(sent, mac.toString('hex')) || eq(sent, mac.toString('base64'));
      };
      return checkReceiver(t, { verify });
    },
  },
  {
    does: 'sends the same read again 10 s after a 401 with the expired token (its renewal was still in flight), then renews',
    why: '"remedy: request a new access token": the repeat is one call beyond 5 s after the 401, both a repeat after a 4xx done nothing about and an expired token sent again; which rule, or both, the interface does not rank',
    judged: ['auth.renewed-after-expiry', 'retry.only-after-failure'],
    async run(t) {
      const a = auth(t, undefined, 120);
      ok('fresh', await get(t, a, '/providers'));
      await sleeper(t)(125_000);
      const expired = await get(t, a, '/connectors');
      if (expired.status !== 401) throw new Error(`answered ${expired.status}`);
      await sleeper(t)(10_000);
      await get(t, a, '/connectors');
      ok('renewed', await get(t, auth(t, undefined, 120), '/connectors'));
    },
  },
  {
    does: 'grows its waits by 5 % per retry (1000, 1050, 1103 ms, no jitter), five reads each through three 500s',
    why: '"Clients retry with growing intervals": 5 % is growth, but so little that the waits are equal within the rule’s tolerance (10 ms or 5 %); how much growth the interface asks for it does not say (its sample doubles)',
    judged: ['retry.growing-waits', 'retry.spread'],
    async run(t) {
      await readsOn(t, auth(t), sleeper(t), {
        schedule: (n) => Math.round(1_000 * 1.05 ** n),
        failures: 3,
        max: 3,
        ops: 5,
      });
    },
  },
];
