// An independent deployment ("buckeye", written from interface.md alone, Rust/axum-minded and strict about
// HTTP) judged by the kit in process: without a deployment profile, with the profile declaring buckeye's own
// choices (delivery log filtered by query parameter, hash-chain audit format, a bounded burst), and with its
// other legal choices switched on together (a YAML document sharing nodes through anchors among them).
import { fileURLToPath } from 'node:url';
import { startBuckeye } from './independent/buckeye/server.ts';
import { independentSuite, PROFILE_JUDGED } from './independent-suite.ts';

const PROFILE = fileURLToPath(new URL('./independent/buckeye/buckeye-profile.json', import.meta.url));

/**
 * A bucket of 600 calls refilled at 30 calls/s (empty to full in 20 s): a whole run (about 450 calls of the
 * main tenant) is never paced, and the profile's burst (up to 1200 calls) meets a 429 after a few hundred
 * calls even on a loaded machine (any burst faster than 60 calls/s drains it).
 */
const FAST = { rateLimit: 600, windowMs: 20_000 };

/** Other legal choices where the interface leaves room (each a BUCKEYE_* switch of start.ts). */
const OTHERS = {
  ...FAST,
  requireServiceVersion: true,
  auditOldestFirst: true,
  streamFromStart: true,
  cursorOverHeader: true,
  denyUnknownFields: true,
  redactKeyOnReplay: true,
  // A YAML file sharing repeated nodes through anchors and aliases (valid YAML 1.2, what PyYAML or libyaml
  // emit, expanding to exactly the JSON document). When written, the kit's YAML parser stopped at its alias
  // guard (16) and openapi.yaml-matches-json failed as MUST ("Excessive alias count"); the guard now bounds the
  // expansion instead (support/yaml-json.ts), and the file is compared value for value.
  yamlAnchors: true,
};

independentSuite({
  deployment: 'buckeye',
  start: startBuckeye,
  runs: [
    { name: 'without a deployment profile', options: FAST },
    { name: 'with its deployment profile', options: FAST, profile: PROFILE, judged: PROFILE_JUDGED },
    { name: 'with its other legal choices together', options: OTHERS, profile: PROFILE, judged: PROFILE_JUDGED },
  ],
});
