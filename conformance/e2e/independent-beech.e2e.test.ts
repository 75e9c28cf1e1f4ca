// An independent deployment ("beech", written from interface.md alone, a Ruby on Rails team's API ported to
// node:http) judged by the kit in process: without a deployment profile, with the profile declaring beech's
// choices, and with two further legal Rails choices the kit judged wrongly when beech was written.
import { fileURLToPath } from 'node:url';
import { startBeech } from './independent/beech/server.ts';
import { independentSuite, PROFILE_JUDGED } from './independent-suite.ts';

const PROFILE = fileURLToPath(new URL('./independent/beech/beech-profile.json', import.meta.url));

/** A short Rack::Attack period, so the profile's bounded burst (1200 calls) meets a 429 within a window or two. */
const FAST = { rateLimit: 300, windowMs: 5000 };

independentSuite({
  deployment: 'beech',
  start: startBeech,
  runs: [
    { name: 'without a deployment profile', options: FAST },
    { name: 'with its deployment profile', options: FAST, profile: PROFILE, judged: PROFILE_JUDGED },
    // db/seeds.rb gives each tenant a demo connection (ids "1", "2"). Ids are Active Record sequences per table,
    // so the kit's first webhook registration is webhook "1", and the kit took that registration's createdAt for
    // connection "1"'s: generated.request-echo failed a MUST ("Format of identifiers ...: not shown"); ids are
    // now read per collection.
    { name: 'with seeded demo connections', options: { ...FAST, seedDemo: true }, profile: PROFILE },
    // Rails defaults: logs in id order (oldest first), Kaminari paging announced by X-Next-Page / X-Total headers and
    // a documented `page` parameter (no Link header), times in config.time_zone (+01:00). The kit found "no further
    // page it can discover" and skipped audit.records-change, though the next page is announced and documented;
    // X-Next-Page is followed now.
    {
      name: 'with oldest-first logs, Kaminari headers only and a +01:00 time zone',
      options: { ...FAST, oldestFirst: true, noLinkHeader: true, utcOffset: 60 },
      profile: PROFILE,
      judged: ['audit.records-change', 'audit.order'],
    },
  ],
});
