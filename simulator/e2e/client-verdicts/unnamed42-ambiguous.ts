import { CURRENT_VERSION } from '../../contract/versions.ts';
import { api, auth, CONNECTION, fault } from './unnamed-kit.ts';
import { checkReceiver } from './unnamed-run.ts';
import { alternate } from './unnamed5-fleet.ts';
import { sleeper } from './unnamed6-kit.ts';
import type { AmbiguousClient8 } from './unnamed8-ambiguous.ts';
import { get, ok } from './unnamed8-kit.ts';
import { createWith } from './unnamed11-kit.ts';
import { EARLIER_VERSION, someWebhook, staggeredStreams } from './unnamed42-kit.ts';

/**
 * Round 42, cases the interface does not decide: the rules' verdict today is stated (`judged`: the rules
 * failed), not claimed right or wrong. A change of rule that moves one must say why.
 */
export const AMBIGUOUS_42: AmbiguousClient8[] = [
  {
    does: 'is a receiver being retired that verifies nothing and refuses every delivery (as a 410 Gone would ask the sender to stop)',
    why: '"The receiver compares in constant time and rejects the delivery when ...": a receiver that refuses everything rejects every forgery, but the interface gives no word on answering a valid delivery 2xx or on a receiver leaving; the receiver check wants 2xx for valid and valid-spaced, so it fails',
    judged: ['webhooks.receiver-verifies'],
    run: (t) => checkReceiver(t, { verify: () => false }),
  },
  {
    does: 'is a Go kit poller reading /connections every 5 s that, after a 500, polls once more at once and then keeps its 5 s cadence',
    why: '"A read polled at a steady cadence is polling": the one poll at once after the 500 is a retry (a single wait under 50 ms counts as none), the rest are polls; the interface does not say whether a catch-up poll is a retry owing a growing wait',
    judged: [],
    async run(t) {
      const a = auth(t);
      const sleep = sleeper(t);
      for (let i = 0; i < 8; i++) {
        if (i === 3) fault(t, { kind: 'internal', route: 'listConnections', count: 1 });
        const r = await get(t, a, '/connections');
        if (r.status === 500) await get(t, a, '/connections');
        await sleep(5_000);
      }
    },
  },
  {
    does: 'is a client pinned to Service-Version 2026-06-12 reading a webhook’s delivery log (published only since 2026-07-01), refused, then reading it again at once with 2026-07-01',
    why: '"Sample calls send a header Service-Version": the remedy the README names is another version after a 400 that refused an UNPUBLISHED one; here the version is published and the route is not in it, and the interface names the causes of a 404 as a wrong identifier or tenant only; the rules take the second read (the same content, another header) as a 404 repeated unchanged',
    judged: ['retry.only-after-failure'],
    async run(t) {
      const a = auth(t);
      const id = await someWebhook(t, a, 'pinned-hook-4243');
      await sleeper(t)(2_000);
      const old = await api(t, a, 'GET', `/webhooks/${id}/deliveries`, { version: EARLIER_VERSION });
      const now = await api(t, a, 'GET', `/webhooks/${id}/deliveries`);
      if (old.status < 400 || old.status === 429 || now.status !== 200)
        throw new Error(`answered ${old.status}, ${now.status}`);
    },
  },
  {
    does: 'is an Apigee proxy hedging a read: sent to the main and the alternate address at once with one token, the slower answer discarded, for three reads 5 s apart',
    why: '"retry only after rate_limited and internal": two copies of one read sent together are no retry of a failure, and the interface says nothing about hedging reads; the rules see two reads at the same instant, neither after the other’s answer',
    judged: [],
    async run(t) {
      const a = auth(t);
      for (const path of ['/providers', '/connectors', '/capabilities']) {
        const [main, alt] = await Promise.all([get(t, a, path), get(alternate(t), a, path)]);
        if (main.status !== 200 || alt.status !== 200) throw new Error(`answered ${main.status}, ${alt.status}`);
        await sleeper(t)(5_000);
      }
    },
  },
  {
    does: 'is a reader whose main stream was cut at 2 while its alternate stream read on to 4, resuming BOTH from 4 (the last number the reader read, on either)',
    why: '"the client resumes without gaps by sending ... (last number read)": the reader as a whole read 4 and misses nothing, and whether the last number read is the reader\u2019s or each stream\u2019s the interface does not say; the rules match the first reconnect to the alternate stream (ended at 4) and the second to the first reconnect (which read nothing past 4), and leave the main stream (ended at 2) unresumed: no fault',
    judged: [],
    run: (t) => staggeredStreams(t, auth(t), (_m, n) => [n.at(-1) ?? 0, n.at(-1) ?? 0]),
  },
  {
    does: 'is a client whose default headers and a request interceptor both set Service-Version, sent combined as "2026-07-01, 2026-07-01", one read',
    why: '"Sample calls send a header Service-Version with the version identifier": the identifier is sent, twice; whether a repeated header is sending it the interface does not say, and the value the service reads is no published version',
    judged: ['version.service-version-sent'],
    async run(t) {
      await api(t, auth(t), 'GET', '/connectors', { version: `${CURRENT_VERSION}, ${CURRENT_VERSION}` });
    },
  },
  {
    does: 'is an Azure Service Bus worker (one token) whose message lock expired while its create succeeded, the message redelivered to it 30 s later and sent again under its MessageId (replayed)',
    why: '"retry only after rate_limited and internal": the worker repeats nothing on purpose, the broker redelivers; the README names a redelivery to ANOTHER process (its own token) as no repeat, and says nothing of one to the same process, which the rules take as a create repeated after its 200',
    judged: ['retry.only-after-failure'],
    async run(t) {
      const a = auth(t);
      const body = { ...CONNECTION, scopeLabel: 'Bus Bistro' };
      const one = await createWith(t, a, body, 'sb-msg-4246');
      await sleeper(t)(30_000);
      const two = await createWith(t, a, body, 'sb-msg-4246');
      if (one.status !== 200 || two.json?.meta?.replayed !== true)
        throw new Error(`answered ${one.status}, ${two.status}`);
    },
  },
  {
    does: 'is a status page polling GET /connections/{id} every 30 s for an id that does not exist (404 each time), five times',
    why: '"A read polled at a steady cadence is polling": the README also lists a 404 repeated unchanged as a repeat after no reason to retry; which wins for a steady poll of a missing entry the interface does not say; with no success to show a cadence the rules take each poll as a 404 repeated',
    judged: ['retry.only-after-failure'],
    async run(t) {
      const a = auth(t);
      for (let i = 0; i < 5; i++) {
        const r = await get(t, a, '/connections/con_missing4247');
        if (r.status !== 404) throw new Error(`answered ${r.status}`);
        await sleeper(t)(30_000);
      }
    },
  },
  {
    does: 'is a dashboard polling GET /webhooks/{id} every 30 s (three 200s), the webhook then deleted by an admin tool with its own token, the poll going on at its cadence through three 404s',
    why: '"A read polled at its cadence through failures is polling", and "a 404 repeated unchanged" is a repeat after no reason to retry; rounds 2, 22 and 28 fail a poll kept at its cadence through 401s (a remedy ignored), so the rules take a steady poll through a 4xx as repeats (through 5xx it is polling: the same dashboard through three 500s passes); whether a dashboard must stop polling an entry that is gone the interface does not say',
    judged: ['retry.only-after-failure'],
    async run(t) {
      const monitor = auth(t);
      const id = await someWebhook(t, monitor, 'dash-hook-4214');
      const seen: number[] = [];
      for (let i = 0; i < 6; i++) {
        if (i === 3) ok('delete', await api(t, auth(t), 'DELETE', `/webhooks/${id}`, { key: 'admin-del-4214' }));
        seen.push((await get(t, monitor, `/webhooks/${id}`)).status);
        await sleeper(t)(30_000);
      }
      if (seen.join() !== '200,200,200,404,404,404') throw new Error(`answered ${seen.join()}`);
    },
  },
];
