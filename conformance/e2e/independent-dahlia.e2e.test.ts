// An independent deployment ("dahlia", written from interface.md alone, TypeScript on node:http, hosted-IdP
// style auth) judged by the kit in process: without a deployment profile and with the profile declaring
// dahlia's own choices. Expected: no failed MUST, no failed SHOULD, exit code 0.
import { fileURLToPath } from 'node:url';
import { expect } from 'vitest';
import { startDahlia } from './independent/dahlia/server.ts';
import { independentSuite } from './independent-suite.ts';

const PROFILE = fileURLToPath(new URL('./independent/dahlia/dahlia-profile.json', import.meta.url));

// Its own limit is 40 calls per 10 s: a whole run then waits out windows for about 70 s. The two main
// runs use a generous limit (every other choice of dahlia's stays); the paced run below keeps dahlia's
// shape of limit (a fixed window per token, tenant and environment) with a 2 s window.
const GENEROUS = { rateLimit: 10_000 };

independentSuite({
  deployment: 'dahlia',
  start: startDahlia,
  timeout: 180_000,
  runs: [
    { name: 'without a deployment profile', options: GENEROUS },
    // With the profile the kit judges the delivery log, redelivery and capability_denied too (the 429 burst:
    // the paced run below, as 10,000 calls a window are more than the profile's burst).
    {
      name: 'with its deployment profile',
      options: GENEROUS,
      profile: PROFILE,
      judged: ['webhooks.delivery-log', 'webhooks.redelivery', 'errors.capability-denied'],
    },
    // Another legal choice of dahlia's: HS256 tokens.
    { name: 'with HS256 tokens', options: { ...GENEROUS, alg: 'HS256' }, allow: 'should' },
    // dahlia's own kind of limit with a 2 s window, and 8 s tokens, with its profile (whose burst finds the
    // 429): the kit waits out every 429's Retry-After (one pause for all its calls), renews a token that ran
    // out while it waited, and judges no rule by a 429 (before: MUST failures on 429s and on expired tokens).
    {
      name: 'with 40 calls per 2 s window and 8 s tokens',
      options: { rateLimit: 40, windowMs: 2000, tokenLifetimeSeconds: 8 },
      profile: PROFILE,
      allow: 'should',
      judged: ['rate-limit.retry-after'],
      // The report says the run was paced, and that no verdict came from it.
      also: (run) =>
        expect(run.notices.join('\n')).toMatch(
          /answered 429 \d+ times? to calls under the retry policy: every call waited/,
        ),
    },
  ],
});
