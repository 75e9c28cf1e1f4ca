// An independent deployment ("locust", written from interface.md alone, Python Falcon team style: integer
// autoincrement ids as strings, marshmallow's error dicts in `detail`, `+00:00` ISO times, an RQ-style delivery
// worker, a per-tenant SHA-256 hash chain) judged by the kit in process: without a deployment profile, with the
// profile declaring its own choices, and with other legal choices (2 s tokens, a zero-digest genesis link,
// audit pages of at most 10).
import { fileURLToPath } from 'node:url';
import { startLocust } from './independent/locust/server.ts';
import { independentSuite, PROFILE_JUDGED } from './independent-suite.ts';

const PROFILE = fileURLToPath(new URL('./independent/locust/locust-profile.json', import.meta.url));
/** The same profile, its audit hash declared as Python's default `json.dumps(entry, sort_keys=True)` spacing. */
const PYTHON_PROFILE = fileURLToPath(new URL('./independent/locust/locust-python-profile.json', import.meta.url));

/** falcon-limiter's "250 per 5 seconds": the profile's bounded burst meets a 429 quickly, at most 50 calls a second. */
const FAST = { rateLimit: 250, windowMs: 5000 };

independentSuite({
  deployment: 'locust',
  start: startLocust,
  runs: [
    // Undeclared, with more of the team's legal choices: webhook and delivery ids as JSON numbers (marshmallow
    // fields.Int; those response fields are not shown), a redelivery that requeues the logged delivery itself
    // (same id, one more attempt), and Service-Version required on authenticated calls (not shown either way).
    {
      name: 'without a deployment profile, numeric webhook ids, requeued redeliveries, Service-Version required',
      options: { ...FAST, numericIds: true, requeueSameDelivery: true, versionRequired: true },
    },
    {
      name: 'with its deployment profile',
      options: FAST,
      profile: PROFILE,
      judged: [...PROFILE_JUDGED, 'audit.chain-links', 'audit.entry-hash'],
    },
    // Other legal choices: token lifetime, client authentication, audit page size, the chain's genesis link and the
    // hash's serialization are not shown (a Basic-authenticated token request is refused 401 invalid_client: the
    // kit then posts the secret; the hash is over `json.dumps(entry, sort_keys=True)` with Python's default
    // separators, which no common formula matches, so the profile declares it as a template).
    {
      name: 'with 2 s tokens by client_secret_post, audit pages of 10, a zero genesis link, Python-spaced hashes',
      options: {
        ...FAST,
        tokenTtl: 2,
        tokenAuth: 'post' as const,
        auditMaxLimit: 10,
        auditGenesis: 'zeros' as const,
        auditJson: 'python' as const,
      },
      profile: PYTHON_PROFILE,
      judged: ['audit.chain-links', 'audit.entry-hash', 'webhooks.delivery-log'],
    },
  ],
});
