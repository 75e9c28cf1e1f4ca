// An independent deployment ("rowan", written from interface.md alone, Django REST Framework behind AWS ALB +
// CloudFront style) judged by the kit in process: without a deployment profile and with the profile declaring
// rowan's own choices, then with DRF's default throttle shape at a small size.
import { fileURLToPath } from 'node:url';
import { startRowan } from './independent/rowan/server.ts';
import { independentSuite, PROFILE_JUDGED } from './independent-suite.ts';

const PROFILE = fileURLToPath(new URL('./independent/rowan/rowan-profile.json', import.meta.url));

/** A 5 s throttle window (rowan's default is 100/minute), so the profile's bounded burst meets a 429 at once. */
const FAST = { rateLimit: 200, windowMs: 5000 };

independentSuite({
  deployment: 'rowan',
  start: startRowan,
  timeout: 120_000,
  runs: [
    { name: 'without a deployment profile', options: FAST },
    { name: 'with its deployment profile', options: FAST, profile: PROFILE, judged: PROFILE_JUDGED },
    // Another legal choice: a tight throttle (values not shown) answering some of the kit's calls 429.
    { name: 'with 60 calls per 2 s', options: { rateLimit: 60, windowMs: 2000 }, allow: 'should' },
  ],
  // Not run: DRF's PAGE_SIZE at 10 (ROWAN_PAGE_SIZE=10), `count` the total while a page lists 10 with `next`
  // linking the rest. The kit fails it (generated.count-agreement, generated.created-listed: MUST) and keeps
  // doing so: GET /connections takes "No parameters" and answers "connections of the tenant" with count and
  // connections side by side, which reads as the whole list, not a page of it (conformance/README.md, rowan).
});
