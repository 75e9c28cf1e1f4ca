import type { RuleReport } from '../../client-rules/index.ts';
import type { SandboxOptions } from '../../app/sandbox-options.ts';
import type { ReceiverCheckResult } from '../../webhooks/receiver-check.ts';
import { httpTarget, type Target, testClock } from '../harness.ts';
import { type ReceiverKind, startUnnamedReceiver } from './unnamed-receivers.ts';

/**
 * What the unnamed-clients suites share: each client against a simulator of its own over node:http,
 * its verdicts kept by name for the tests to read.
 */
export interface Outcome {
  rules: RuleReport[];
  receiverCheck?: ReceiverCheckResult;
}

/** The verdicts of every client run, by what it does (an Error when its run threw). */
export function createOutcomes() {
  const outcomes = new Map<string, Outcome | Error>();
  /** Runs one client against a fresh simulator and keeps its report. */
  async function judged(name: string, drive: (t: Target) => Promise<unknown>, options: SandboxOptions = {}) {
    // The clients' sleeps advance this clock: the waits the rules judge are the ones the clients chose.
    const t = await httpTarget({ activationDelayMs: 0, clock: testClock(), ...options });
    try {
      const out = await drive(t);
      // A receiver's run hands back its receiver check; a client's, nothing.
      const receiverCheck = out && typeof out === 'object' && 'cases' in out ? (out as ReceiverCheckResult) : undefined;
      outcomes.set(name, { rules: t.sandbox.clientReport().rules, ...(receiverCheck ? { receiverCheck } : {}) });
    } catch (err) {
      outcomes.set(name, err instanceof Error ? err : new Error(String(err)));
    } finally {
      await t.close();
    }
  }
  function outcome(name: string): Outcome {
    const o = outcomes.get(name);
    if (!o) throw new Error(`${name}: not run`);
    if (o instanceof Error) throw o;
    return o;
  }
  return { judged, outcome };
}

/** Registers a receiver of this kind and runs the receiver check against it. */
export async function checkReceiver(
  t: Target,
  kind: Pick<ReceiverKind, 'verify'> & { delayMs?: number; timeoutMs?: number },
): Promise<ReceiverCheckResult> {
  const rx = await startUnnamedReceiver(kind.verify, kind.delayMs);
  try {
    const { token, tenant } = t.sandbox.issueToken();
    const res = await t.fetch(`${t.baseUrl}/api/public/v1/webhooks`, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${token}`,
        'x-service-tenant': tenant,
        'service-version': '2026-07-01',
        'idempotency-key': 'unnamed-receiver-1',
        'content-type': 'application/json',
      },
      body: JSON.stringify({ url: rx.url, events: ['order.created'] }),
    });
    const hook = ((await res.json()) as { data: { id: string; secret?: string; signingSecret?: string } }).data;
    rx.setSecret(hook.secret ?? hook.signingSecret ?? '');
    return await t.sandbox.receiverCheck({
      webhookId: hook.id,
      ...(kind.timeoutMs ? { timeoutMs: kind.timeoutMs } : {}),
    });
  } finally {
    await rx.close();
  }
}

/** Runs the jobs, at most `width` at a time. */
export async function pool(jobs: (() => Promise<void>)[], width: number) {
  const queue = [...jobs];
  await Promise.all(
    Array.from({ length: width }, async () => {
      for (let job = queue.shift(); job; job = queue.shift()) await job();
    }),
  );
}

/** The rules a client failed, sorted. */
export const failed = (o: Outcome) =>
  o.rules
    .filter((r) => r.status === 'fail')
    .map((r) => r.id)
    .sort();

/** The verdicts, for an assertion's message. */
export const shown = (o: Outcome) =>
  JSON.stringify(
    o.rules.map(({ id, status, summary, evidence }) => ({ id, status, summary, evidence })),
    null,
    1,
  );
