import { api, auth, CONNECTION, fault, type Reply, type UnnamedClient2 } from './unnamed-kit.ts';
import { seeded, uuid } from './unnamed4-kit.ts';
import { fixturesWithClientForAllTenants, guidanceWait, retried, transient } from './unnamed5-fleet.ts';
import { sleeper } from './unnamed6-kit.ts';
import {
  airflowDelayMs,
  apolloRetryLinkMs,
  jobPodBackoffMs,
  prefectDelayMs,
  temporalIntervalMs,
} from './unnamed7-kit.ts';

const ok = (what: string, r: Reply) => {
  if (r.status !== 200) throw new Error(`${what} answered ${r.status}`);
};

/**
 * Round 7, well-behaved: work as orchestrators and gateways run it (a try per process, a redelivery to
 * another worker, one token across tenants, a token per signed-in person, a GraphQL fan-out).
 */
export const RUNS_7: UnnamedClient2[] = [
  // "Modifying calls are repeat-safe through idempotency keys": an Airflow task (retries=3,
  // retry_delay=10 s, retry_exponential_backoff) whose every try is a new process with a new token;
  // its key is derived from dag, run and task, so each try sends the same one.
  {
    does: 'is an Airflow task (retries=3, retry_delay 10 s, retry_exponential_backoff with its hash jitter), each try a new process with its own token, the key derived from dag_id, run_id and task_id',
    pass: ['retry.same-key-and-content', 'auth.token-reused', 'retry.attempt-limit'],
    async run(t) {
      const sleep = sleeper(t);
      fault(t, { kind: 'internal', route: 'createConnection', count: 2 });
      const id = { dag: 'venue_onboarding', task: 'create_connection', date: '2026-11-26T00:00:00' };
      const key = 'airflow.venue_onboarding.scheduled__2026-11-26T00:00:00.create_connection';
      const body = { ...CONNECTION, scopeLabel: 'Airflow Arms' };
      for (let tryNumber = 1; ; tryNumber++) {
        const r = await api(t, auth(t), 'POST', '/connections', { body, key });
        if (r.status === 200) break;
        if (tryNumber === 4) throw new Error(`try ${tryNumber} answered ${r.status}`);
        await sleep(airflowDelayMs({ retryDelayS: 10, ...id, tryNumber: tryNumber + 1 }) + 2_000); // + the scheduler loop
      }
    },
  },
  // The same sentence and "A sample client makes up to 4 attempts": a Kubernetes Job (backoffLimit 3,
  // restartPolicy Never) whose container exits 1 on a 500; the Job controller starts a new pod after
  // 10 s, 20 s, 40 s; each pod gets its token at start and takes the key from the Job's name.
  {
    does: 'is a Kubernetes Job (backoffLimit 3) whose pod exits on a 500 and is replaced after the controller’s 10/20/40 s back-off, each pod with its own token and the key from the Job name',
    pass: ['retry.same-key-and-content', 'retry.attempt-limit', 'auth.token-reused'],
    async run(t) {
      const sleep = sleeper(t);
      fault(t, { kind: 'internal', route: 'createConnection', count: 3 });
      const key = 'job.onboard-venue-28812345.create';
      const body = { ...CONNECTION, scopeLabel: 'Kubelet Kitchen' };
      for (let failures = 0; ; ) {
        const r = await api(t, auth(t), 'POST', '/connections', { body, key });
        if (r.status === 200) break;
        if (++failures > 3) throw new Error('backoffLimit reached');
        await sleep(jobPodBackoffMs(failures) + 1_800); // the back-off, then image pull and start
      }
    },
  },
  // The same sentence: an SQS consumer; worker A's create is committed and its connection dropped, A
  // crashes; after the 30 s visibility timeout worker B (its own token, polling all along) receives the
  // message and sends the create with the key the producer put into the message.
  {
    does: 'is an SQS consumer: worker A’s create is committed then dropped and A crashes; after the 30 s visibility timeout worker B (its own token) receives the message and sends the create with the key from the message',
    pass: ['retry.same-key-and-content', 'idempotency.one-key-one-content'],
    async run(t) {
      const sleep = sleeper(t);
      const workerA = auth(t);
      const workerB = auth(t);
      const message = { key: `sqs-msg-${uuid(seeded(711))}`, body: { ...CONNECTION, scopeLabel: 'Visibility Grill' } };
      await api(t, workerB, 'GET', '/connectors?providerId=tillcraft');
      fault(t, { kind: 'commit_then_fail', route: 'createConnection', failWith: 'drop', count: 1 });
      await api(t, workerA, 'POST', '/connections', { body: message.body, key: message.key });
      await sleep(30_000);
      const r = await api(t, workerB, 'POST', '/connections', { body: message.body, key: message.key });
      ok('the redelivered create', r);
      if (r.json?.meta?.replayed !== true) throw new Error('B’s create was not replayed');
    },
  },
  // "x-service-tenant: identifier of the tenant for which the call applies" and "respect the wait time
  // of the response": a multi-tenant SaaS backend with one token cache for all its tenants; one
  // tenant's 429 is waited out while the other tenants' identical reads go on at once.
  {
    does: 'is a multi-tenant SaaS backend with one token cache across three tenants: one tenant’s read gets a 429 and waits it out, while the other tenants’ identical reads go on 50 ms later; one tenant’s failed create is retried with its key while another tenant creates the same content under its own',
    pass: ['retry.respects-retry-after', 'retry.only-after-failure', 'retry.same-key-and-content'],
    options: { fixtures: fixturesWithClientForAllTenants('network-integrator') },
    async run(t) {
      const sleep = sleeper(t);
      const cached = auth(t, 'network-integrator', 3600);
      const [first, ...others] = ['harbour-kitchens', 'alpine-bistro', 'lakeside-cafes'];
      fault(t, { kind: 'rate_limited', route: 'listConnections', tenant: first, retryAfterSeconds: 2, count: 1 });
      const limited = await api(t, { ...cached, tenant: first ?? '' }, 'GET', '/connections');
      if (limited.status !== 429) throw new Error(`the first tenant answered ${limited.status}`);
      for (const tenant of others) {
        await sleep(50);
        ok(tenant, await api(t, { ...cached, tenant }, 'GET', '/connections'));
      }
      await sleep(limited.retryAfterMs + 137);
      ok('the retry', await api(t, { ...cached, tenant: first ?? '' }, 'GET', '/connections'));
      // One tenant's create fails; another tenant creates the same venue template under its own key.
      fault(t, { kind: 'internal', route: 'createConnection', tenant: first, count: 1 });
      const body = { ...CONNECTION, scopeLabel: 'Franchise Template Venue' };
      await api(t, { ...cached, tenant: first ?? '' }, 'POST', '/connections', { body, key: 'mt-harbour-0001' });
      await sleep(100);
      ok(
        'the other tenant',
        await api(t, { ...cached, tenant: others[0] ?? '' }, 'POST', '/connections', { body, key: 'mt-alpine-0001' }),
      );
      await sleep(700);
      ok(
        'the create',
        await api(t, { ...cached, tenant: first ?? '' }, 'POST', '/connections', { body, key: 'mt-harbour-0001' }),
      );
    },
  },
  // "Authorization code | application acting for a signed-in person | … store it server-side": a
  // mobile backend-for-frontend holding one token per signed-in person (three sessions at once); one
  // person's read gets a 429 and then a 500, waited out and retried, while the others read the same path.
  {
    does: 'is a mobile backend-for-frontend holding a server-side token per signed-in person (three at once, authorization code): one person’s read gets a 429 and a 500 and is retried (Retry-After, then the guidance) while the others read the same path 100 ms after each failure',
    pass: ['retry.only-after-failure', 'retry.respects-retry-after', 'auth.token-reused'],
    async run(t) {
      const sleep = sleeper(t);
      const sessions = [auth(t), auth(t), auth(t)];
      const [u1, u2, u3] = sessions;
      if (!u1 || !u2 || !u3) throw new Error('no sessions');
      for (const s of sessions) ok('a first read', await api(t, s, 'GET', '/connections'));
      const wait = guidanceWait(seeded(712));
      const failures = [
        () => fault(t, { kind: 'rate_limited', route: 'listConnections', retryAfterSeconds: 2, count: 1 }),
        () => fault(t, { kind: 'internal', route: 'listConnections', count: 1 }),
      ];
      let r: Reply | undefined;
      for (let n = 0; n < 3; n++) {
        failures[n]?.();
        r = await api(t, u2, 'GET', '/connections');
        if (!transient(r)) break;
        await sleep(100);
        ok('u1', await api(t, u1, 'GET', '/connections'));
        ok('u3', await api(t, u3, 'GET', '/connections'));
        await sleep(Math.max(r.retryAfterMs, wait(n)));
      }
      if (r?.status !== 200) throw new Error(`u2 answered ${r?.status}`);
    },
  },
  // "Modifying calls are repeat-safe" and "retry with growing intervals": a GraphQL gateway whose
  // resolvers fan a query out to three reads at once (DataLoader), a RetryLink (max 4, jitter) per
  // subrequest, and a createConnection mutation keyed by the frontend's clientMutationId.
  {
    does: 'is a GraphQL gateway: one query fans out to three reads at once (DataLoader), the failed one retried by a RetryLink (max 4 attempts, full jitter); a mutation keyed by its clientMutationId resent with that key after a 503',
    pass: ['retry.only-after-failure', 'retry.same-key-and-content', 'retry.attempt-limit'],
    async run(t) {
      const a = auth(t);
      const sleep = sleeper(t);
      const random = seeded(713);
      fault(t, { kind: 'internal', route: 'listCapabilities', count: 2 });
      const resolvers = ['/providers', '/connectors', '/capabilities'].map((path) =>
        retried(
          sleep,
          () => api(t, a, 'GET', path),
          (n, x) => (transient(x) ? apolloRetryLinkMs(n, random) : undefined),
        ),
      );
      for (const r of await Promise.all(resolvers)) ok('a resolver', r);
      await sleep(1_500);
      fault(t, { kind: 'unavailable', route: 'createConnection', retryAfterSeconds: 1, count: 1 });
      const clientMutationId = `gql-mut-${uuid(random)}`;
      const body = { ...CONNECTION, scopeLabel: 'Schema Stitch Cafe' };
      const r = await retried(
        sleep,
        () => api(t, a, 'POST', '/connections', { body, key: clientMutationId }),
        (n, x) => (transient(x) ? Math.max(x.retryAfterMs, 600 * 2 ** n) + Math.floor(random() * 300) : undefined),
      );
      ok('the mutation', r);
    },
  },
  // The same sentences: a Temporal activity (RetryPolicy initialInterval 1 s, coefficient 2,
  // maximumAttempts 4), its attempts run by whichever of two workers (each its own token, polling all
  // along) polls the task queue; the key is the workflow id and activity id, the same on every attempt.
  {
    does: 'is a Temporal activity (initialInterval 1 s, backoffCoefficient 2, maximumAttempts 4) whose attempts alternate between two workers with their own tokens, keyed by workflow id and activity id',
    pass: ['retry.same-key-and-content', 'retry.attempt-limit'],
    async run(t) {
      const sleep = sleeper(t);
      const workers = [auth(t), auth(t)];
      for (const w of workers) ok('a poll', await api(t, w, 'GET', '/capabilities'));
      fault(t, { kind: 'internal', route: 'createConnection', count: 3 });
      const key = 'temporal:onboard-venue-4411:activity-3';
      const body = { ...CONNECTION, scopeLabel: 'Durable Diner' };
      for (let attempt = 1; ; attempt++) {
        const w = workers[attempt % 2];
        if (!w) throw new Error('no worker');
        const r = await api(t, w, 'POST', '/connections', { body, key });
        if (r.status === 200) break;
        if (attempt === 4) throw new Error(`attempt ${attempt} answered ${r.status}`);
        await sleep(temporalIntervalMs(attempt));
      }
    },
  },
  // The same sentences: a Prefect flow's task (retries=2, exponential_backoff(backoff_factor=10),
  // retry_jitter_factor=0.5), the key from the flow run id and task key, through a 429 and a 500.
  {
    does: 'is a Prefect task (retries=2, exponential_backoff(10), retry_jitter_factor=0.5) keyed by flow run id and task key, through a 429 and a 500',
    pass: ['retry.same-key-and-content', 'retry.respects-retry-after'],
    async run(t) {
      const a = auth(t);
      const sleep = sleeper(t);
      const random = seeded(714);
      fault(t, { kind: 'rate_limited', route: 'createConnection', retryAfterSeconds: 5, count: 1 });
      fault(t, { kind: 'internal', route: 'createConnection', count: 1 });
      const key = `prefect.${uuid(random)}.create_connection-0`;
      const body = { ...CONNECTION, scopeLabel: 'Flow Run Fry' };
      ok(
        'the task',
        await retried(
          sleep,
          () => api(t, a, 'POST', '/connections', { body, key }),
          (n, x) => (transient(x) ? prefectDelayMs(n, random) : undefined),
          2,
        ),
      );
    },
  },
  // "retry only after rate_limited and internal" and "Tokens … are renewed": a CronJob every minute
  // (restartPolicy OnFailure), each run with a fresh token; one run's container exits on a 500 and the
  // kubelet restarts it after 10 s (a new token), the next minute's run reads the same path again.
  {
    does: 'is a Kubernetes CronJob every minute (restartPolicy OnFailure), a token per container start: one run’s read gets a 500, the kubelet restarts the container 10 s later and it reads again; the next runs read the same path',
    pass: ['retry.only-after-failure', 'auth.token-reused'],
    async run(t) {
      const sleep = sleeper(t);
      for (let minute = 0; minute < 4; minute++) {
        const started = t.sandbox.state.clock.now();
        if (minute === 1) fault(t, { kind: 'internal', route: 'listConnections', count: 1 });
        let r = await api(t, auth(t), 'GET', '/connections');
        if (r.status !== 200) {
          await sleep(10_000 + 1_500); // the kubelet's first back-off, then the container's start
          r = await api(t, auth(t), 'GET', '/connections');
        }
        ok(`minute ${minute}`, r);
        await sleep(60_000 - (t.sandbox.state.clock.now() - started));
      }
    },
  },
];
