import { type ClientRule, evidence, verdict } from './rule.ts';

export const receiverVerifies: ClientRule = {
  id: 'webhooks.receiver-verifies',
  severity: 'MUST',
  title: 'A webhook receiver accepts valid and duplicate deliveries and rejects forged, stale and malformed ones',
  section: 'Events',
  sentence:
    'The receiver compares in constant time and rejects the delivery when the difference between t and the current time exceeds 300 seconds.',
  evaluate({ receiverChecks }) {
    const bad = receiverChecks.flatMap((r) =>
      r.cases
        .filter((c) => !c.pass && !c.advisory)
        .map((c) =>
          evidence(
            { client: `receiver ${r.receiverId}`, tenant: r.tenant },
            [],
            Date.parse(r.startedAt),
            `${c.name} (${c.note}): expected ${c.expect === 'accept' ? '2xx' : 'a refusal (not 2xx)'}, got ${c.status ?? c.error} in ${c.ms} ms`,
          ),
        ),
    );
    const good = receiverChecks.map((r) =>
      evidence(
        { client: `receiver ${r.receiverId}`, tenant: r.tenant },
        [],
        Date.parse(r.startedAt),
        `${r.cases.length} cases scored`,
      ),
    );
    return verdict(bad, good, 'receiver cases', 'no receiver check run yet (POST /_sandbox/receiver-check)');
  },
};
