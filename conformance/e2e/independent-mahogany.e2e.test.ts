// An independent deployment ("mahogany", written from interface.md alone, SAP CAP / OData-minded team style on
// plain node:http: GUIDs, XSUAA-style tokens, CloudEvents deliveries, an Ed25519-signed audit head) judged by the
// kit in process: without a deployment profile, with its profile, and with its other legal choices switched on.
import { fileURLToPath } from 'node:url';
import { type MahoganyOptions, startMahogany } from './independent/mahogany/server.ts';
import { independentSuite, PROFILE_JUDGED } from './independent-suite.ts';

const PROFILE = fileURLToPath(new URL('./independent/mahogany/mahogany-profile.json', import.meta.url));

independentSuite<MahoganyOptions>({
  deployment: 'mahogany',
  start: startMahogany,
  runs: [
    {
      // A short fixed window: the kit meets 429 with Retry-After and waits it out like any client.
      name: 'without a deployment profile',
      options: { rateLimit: 200, windowMs: 5000 },
    },
    {
      // The profile names the delivery log, its retry action, a refusal to provoke and a bounded burst.
      name: 'with its deployment profile',
      options: { rateLimit: 600, windowMs: 10_000 },
      profile: PROFILE,
      judged: PROFILE_JUDGED,
    },
    {
      // 5 s tokens (renewed, not extended), streams cut after 3 s (resumed by Last-Event-ID) and a
      // connection list read from a replica 500 ms behind the writes.
      name: 'with 5 s tokens, 3 s streams and a lagging replica',
      options: { rateLimit: 600, windowMs: 10_000, tokenTtlSeconds: 5, streamMaxSeconds: 3, replicaLagMs: 500 },
      profile: PROFILE,
      judged: PROFILE_JUDGED,
    },
  ],
});
