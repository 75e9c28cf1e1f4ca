// An independent deployment ("kowhai", written from interface.md alone, in the style of a Node team on Express 5
// with express-validator, Sequelize, express-rate-limit, oauth2-server and Bull, ported to node:http with all
// state in memory) judged by the kit in process: without a deployment profile, with its profile
// (PROFILE_JUDGED: delivery log, retry, capability_denied, the burst), and with its other legal choices switched
// on (a short rate-limit window, short tokens, the audit log oldest first, an unknown Service-Version served as
// the current one, slower activation, fewer and quicker delivery attempts), with the profile.
import { fileURLToPath } from 'node:url';
import { startKowhai } from './independent/kowhai/server.ts';
import { independentSuite, PROFILE_JUDGED } from './independent-suite.ts';

const KOWHAI_PROFILE = fileURLToPath(new URL('./independent/kowhai/kowhai-profile.json', import.meta.url));

independentSuite({
  deployment: 'kowhai',
  start: startKowhai,
  runs: [
    { name: 'without a deployment profile' },
    { name: 'with its deployment profile', profile: KOWHAI_PROFILE, judged: PROFILE_JUDGED },
    {
      name: 'with its other legal choices (oldest-first audit, short tokens, version fallback, 300 calls per 10 s)',
      options: {
        limit: 300,
        windowMs: 10_000,
        tokenTtlSeconds: 60,
        auditOrder: 'asc',
        unknownVersion: 'current',
        activationMs: 900,
        webhookAttempts: 2,
        webhookBackoffMs: 250,
        idempotencyTtlHours: 1,
      },
      profile: KOWHAI_PROFILE,
      judged: PROFILE_JUDGED,
    },
  ],
});
