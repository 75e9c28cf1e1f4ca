import { sleepOn, type Target } from '../harness.ts';
import { type Auth, api, auth, fault, publish, readStream, type UnnamedClient2 } from './unnamed-kit.ts';
import { fixturesWithClientForAllTenants } from './unnamed5-fleet.ts';

/** Resolves once `onOpen` was called: a stream the client opened before the next step. */
const opened = () => {
  let open: () => void = () => {};
  return { wait: new Promise<void>((resolve) => (open = resolve)), onOpen: () => open() };
};

/** A cut after `n` messages, then one reconnect from the last number read (and `more` published). */
async function cutAndResume(t: Target, a: Auth, n: number, more = 1): Promise<number[]> {
  // Scoped to the tenant: streams of other tenants opened at the same time do not take it.
  fault(t, { kind: 'stream_cut', afterMessages: n, count: 1, tenant: a.tenant });
  const o = opened();
  const reading = readStream(t, a, { count: n, onOpen: o.onOpen });
  await o.wait;
  publish(t, a.tenant, n);
  const ids = await reading;
  await sleepOn(t, 150);
  return readStream(t, a, { cursor: ids.at(-1) ?? 0, idleMs: 400, onOpen: () => publish(t, a.tenant, more) });
}

/**
 * Round 5, well-behaved stream consumers of fleets and long lifecycles: two pods each reading the
 * stream, a consumer across token expiry and days, a stream per tenant, a consumer group handing over,
 * and two applications behind one NAT address. "After an interruption, the client resumes without gaps
 * by sending Last-Event-ID or the query parameter cursor (last number read)." — each reading resumes
 * from the last number *it* read.
 */
export const STREAM_CLIENTS_5: UnnamedClient2[] = [
  {
    does: 'runs two pods each reading the stream with its own token and cursor store; pod B joins later and is cut after one message, pod A after four, and each resumes from its own last number',
    pass: ['stream.resume-from-last-read'],
    async run(t) {
      const [a, b] = [auth(t), auth(t)];
      fault(t, { kind: 'stream_cut', afterMessages: 4, count: 1 });
      const [oa, ob] = [opened(), opened()];
      const readingA = readStream(t, a, { count: 4, onOpen: oa.onOpen });
      await oa.wait;
      publish(t, a.tenant, 2);
      fault(t, { kind: 'stream_cut', afterMessages: 1, count: 1 });
      const readingB = readStream(t, b, { count: 1, onOpen: ob.onOpen });
      await ob.wait;
      publish(t, a.tenant, 2);
      const [idsA, idsB] = await Promise.all([readingA, readingB]);
      if (idsA.at(-1) === idsB.at(-1)) throw new Error(`both read up to ${idsA.at(-1)}`);
      await sleepOn(t, 300);
      const [ra, rb] = [opened(), opened()];
      const resumedB = readStream(t, b, { cursor: idsB.at(-1) ?? 0, idleMs: 400, onOpen: rb.onOpen });
      await rb.wait;
      const resumedA = readStream(t, a, { cursor: idsA.at(-1) ?? 0, idleMs: 400, onOpen: ra.onOpen });
      await ra.wait;
      publish(t, a.tenant, 1);
      await Promise.all([resumedA, resumedB]);
    },
  },
  // "Tokens are short-lived and are renewed, not extended." and the resume sentence: a consumer that
  // runs for days has its stream closed when each token expires and comes back at once with a new
  // one; a day later (a new deploy) it starts from the cursor it persisted.
  {
    does: 'consumes the stream for days: closed when its 900 s token expires, it resumes at once with a new token; the next day a new deploy resumes from the persisted cursor',
    pass: ['stream.resume-from-last-read', 'auth.token-reused'],
    async run(t) {
      let cursor: number | undefined;
      for (let day = 0; day < 2; day++) {
        for (let token = 0; token < 2; token++) {
          const a = auth(t, undefined, 900);
          await api(t, a, 'GET', '/connections');
          const o = opened();
          const reading = readStream(t, a, {
            ...(cursor === undefined ? {} : { cursor }),
            idleMs: 5_000,
            onOpen: o.onOpen,
          });
          await o.wait;
          publish(t, a.tenant, 2);
          await t.sandbox.control.advanceClock(901); // the token expires: the server closes the stream
          const ids = await reading;
          if (ids.length < 2) throw new Error(`read ${ids.join(',')} before the close`);
          cursor = ids.at(-1);
        }
        await t.sandbox.control.advanceClock(24 * 3600); // the next day
      }
    },
  },
  // One token of a client released for three tenants ("x-service-tenant: identifier of the tenant for
  // which the call applies"): a stream per tenant, each cut and resumed from its own last number.
  {
    does: 'opens one stream per tenant for three tenants with one token, each cut at another point and resumed from its own last number',
    pass: ['stream.resume-from-last-read'],
    options: { fixtures: fixturesWithClientForAllTenants('network-integrator') },
    async run(t) {
      const one = auth(t, 'network-integrator', 3600);
      const tenants = ['harbour-kitchens', 'alpine-bistro', 'lakeside-cafes'];
      await Promise.all(tenants.map((tenant, i) => cutAndResume(t, { ...one, tenant }, i + 2)));
    },
  },
  // A consumer group: pod A reads, commits the last number it read to the group's store and is
  // descheduled; pod B (its own token) takes the partition over from that committed number.
  {
    does: 'hands the stream over within a consumer group: pod A commits the last number it read and is descheduled, pod B (its own token) resumes from the committed number',
    pass: ['stream.resume-from-last-read'],
    async run(t) {
      const committed = { last: 0 };
      const a = auth(t);
      const ids = await readStream(t, a, { count: 3, onOpen: () => publish(t, a.tenant, 3) });
      committed.last = ids.at(-1) ?? 0;
      await sleepOn(t, 2_000); // the rebalance
      const b = auth(t);
      await readStream(t, b, { cursor: committed.last, idleMs: 400, onOpen: () => publish(t, b.tenant, 2) });
    },
  },
  // Buckets are per client id and tenant, not per address: two applications behind one NAT address
  // (both on 127.0.0.1 here), each with its own client id, each resuming its own stream.
  {
    does: 'is two partner applications behind one NAT address (two client ids), each reading the stream with its token and resuming after a cut from its own last number',
    pass: ['stream.resume-from-last-read'],
    async run(t) {
      const backend = auth(t);
      const integrator = auth(t, 'network-integrator');
      await cutAndResume(t, backend, 3);
      await cutAndResume(t, { ...integrator, tenant: backend.tenant }, 2);
    },
  },
];
