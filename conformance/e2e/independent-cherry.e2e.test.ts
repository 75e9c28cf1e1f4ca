// An independent deployment ("cherry", written from interface.md alone, Elixir/Phoenix + Ash style: per-tenant
// integer ids, an Oban-like delivery queue, keyset pages, a `parent`-linked audit chain) judged by the kit in
// process: without a deployment profile, with its profile, and with other legal choices of cherry's.
import { fileURLToPath } from 'node:url';
import { startCherry } from './independent/cherry/server.ts';
import { independentSuite, PROFILE_JUDGED } from './independent-suite.ts';

const PROFILE = fileURLToPath(new URL('./independent/cherry/cherry-profile.json', import.meta.url));

/** A short fixed window, so the profile's bounded burst meets a 429 within seconds. */
const FAST = { rateLimit: 250, windowMs: 5000 };

independentSuite({
  deployment: 'cherry',
  start: startCherry,
  timeout: 120_000,
  runs: [
    { name: 'without a deployment profile', options: FAST },
    { name: 'with its deployment profile', options: FAST, profile: PROFILE, judged: PROFILE_JUDGED },
    // Keyset pages of 5 (the log's page size is not shown): the kit's own delivery is then on a later page of the
    // delivery log (a receiver gets every connection.created of the tenant), reached through links.next. When
    // written, webhooks.redelivery (MUST) re-triggered another delivery: the declared header's "1" matched the
    // receiver's webhookId "1" on page 1; a number written as text now names a delivery only in an id field.
    { name: 'with 5-entry log pages', options: { ...FAST, pageSize: 5 }, profile: PROFILE, judged: PROFILE_JUDGED },
    // A tight window (its values are not shown) that answers some of the kit's own calls 429, and a replayed
    // registration without the signing key ("issued exactly once").
    {
      name: 'with 60 calls per 2 s and no key in a replay',
      options: { rateLimit: 60, windowMs: 2000, redactKeyOnReplay: true },
      allow: 'should',
    },
  ],
});
