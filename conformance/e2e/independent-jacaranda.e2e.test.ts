// An independent deployment ("jacaranda", written from interface.md alone, Go chi + gRPC gateway style)
// judged by the kit in process: with the profile declaring jacaranda's own choices (Jacaranda-Signature, the
// delivery log at /webhook-deliveries?receiver=, `:retry`, a Merkle audit proof), and without a profile with
// its other legal choices switched on, so two runs cover both (the test's CPU budget allows no more).
import { fileURLToPath } from 'node:url';
import { startJacaranda } from './independent/jacaranda/server.ts';
import { independentSuite, PROFILE_JUDGED } from './independent-suite.ts';

const PROFILE = fileURLToPath(new URL('./independent/jacaranda/jacaranda-profile.json', import.meta.url));

/** A short window, so the profile's bounded burst (1200 calls, more than four windows) meets a 429 in seconds. */
const FAST = { rateLimit: 250, windowMs: 5000 };

independentSuite({
  deployment: 'jacaranda',
  start: startJacaranda,
  runs: [
    { name: 'with its deployment profile', options: FAST, profile: PROFILE, judged: PROFILE_JUDGED },
    // Undeclared, the kit finds the event names, the signing key, the delivery log and its retry path itself.
    // Other legal choices: unknown fields dropped, per-entry RFC 9162 inclusion proofs, a P1363 tree-head
    // signature, keyed refusals replayed, the signing key left out of a replay, events as proto enum names,
    // no next_page_token on a last page, a delivery log paged one entry at a time.
    {
      name: 'without a deployment profile, with its other legal choices',
      options: {
        ...FAST,
        choices: {
          discardUnknown: true,
          auditProofs: true,
          sigP1363: true,
          replayRefusals: true,
          redactKeyOnReplay: true,
          upperEvents: true,
          omitEmpty: true,
          deliveryPageSize: 1,
        },
      },
    },
  ],
});
