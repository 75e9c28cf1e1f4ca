// An independent deployment ("chestnut", written from interface.md alone by a Kubernetes-minded platform
// team) judged by the kit in process: without a deployment profile, with the profile declaring chestnut's
// own choices, with its other legal choices switched on, and with Kubernetes list paging of the audit log.
import { fileURLToPath } from 'node:url';
import { startChestnut } from './independent/chestnut/server.ts';
import { independentSuite, PROFILE_JUDGED } from './independent-suite.ts';

const PROFILE = fileURLToPath(new URL('./independent/chestnut/chestnut-profile.json', import.meta.url));

/** A short sliding window, so the profile's bounded burst (1200 calls) spans at least four windows. */
const FAST = { rateLimit: 300, windowMs: 5000 };

independentSuite({
  deployment: 'chestnut',
  start: startChestnut,
  runs: [
    // Undeclared, the kit finds the digest formula (the parent digest, a line break, the entry without it).
    { name: 'without a deployment profile', options: FAST, judged: ['audit.entry-hash'] },
    // The profile also declares the audit entries' digest formula (auditEntryHash), so each entry is recomputed.
    {
      name: 'with its deployment profile',
      options: FAST,
      profile: PROFILE,
      judged: [...PROFILE_JUDGED, 'audit.entry-hash'],
    },
    // Other legal choices at once: Service-Version mandatory, the signing key left out of a replayed
    // registration ("issued exactly once"), unknown query parameters refused, a missing tenant header 403,
    // and audit pages of at most 20 entries (documented in openapi.json). SHOULDs may skip or warn.
    {
      name: 'with its stricter legal choices',
      options: {
        ...FAST,
        requireServiceVersion: true,
        redactKeyOnReplay: true,
        strictQuery: true,
        missingTenant: 'forbidden',
        auditMaxLimit: 20,
      },
      profile: PROFILE,
      allow: 'should',
    },
    // The audit log paged the Kubernetes way only: data.metadata.continue and a `continue` query parameter that
    // openapi.json documents, no Link header. Paging is "not shown" in the interface, so this is legal; the kit
    // sends the token back under the documented parameter (it left audit.records-change unjudged when written).
    {
      name: 'with Kubernetes continue-token paging only',
      options: { ...FAST, auditNoLink: true },
      profile: PROFILE,
      judged: ['audit.records-change', 'audit.order'],
    },
  ],
});
