// An independent deployment ("baobab", written from interface.md alone, Python/FastAPI style ported to
// Node) judged by the kit in process: without a deployment profile, with the profile declaring baobab's
// own choices (its audit formula is SHA3-256), and with other legal choices switched on.
// Expected: no failed MUST or SHOULD, exit code 0.
import { fileURLToPath } from 'node:url';
import { startBaobab } from './independent/baobab/server.ts';
import { independentSuite, PROFILE_JUDGED } from './independent-suite.ts';

const PROFILE = fileURLToPath(new URL('./independent/baobab/baobab-profile.json', import.meta.url));

/** A short fixed window (per token), so the profile's bounded burst meets a 429 within a second. */
const FAST = { rateLimit: 300, windowMs: 5000 };

independentSuite({
  deployment: 'baobab',
  start: startBaobab,
  runs: [
    { name: 'without a deployment profile', options: FAST },
    { name: 'with its deployment profile', options: FAST, profile: PROFILE, judged: PROFILE_JUDGED },
    // Legal too: Service-Version mandatory ("whether the header is mandatory: not shown"), 5 s tokens
    // ("tokens are short-lived and are renewed") and the checkpoint HMAC named `signature` (alg HS256).
    {
      name: 'with Service-Version mandatory, 5 s tokens and a checkpoint "signature"',
      options: { ...FAST, serviceVersionRequired: true, tokenTtlSeconds: 5, checkpointSignature: true },
    },
  ],
});
