import { z } from 'zod';
import { ErrorBody, FailureEnvelope, Meta } from '../../simulator/contract/envelope.ts';
import { ERROR_TABLE } from '../../simulator/contract/errors.ts';
import type { Exchange } from '../client/http-client.ts';
import { bearerOf, findLeaks } from '../rules/leaks.ts';
import { defineCheck } from '../runner/check.ts';
import { errorAnswers, errorProbes, type Probe, undefinedCallProbes } from './support/error-probes.ts';

/** The envelope itself: whether the code is in the table is errors.code-status-pairing's business, requestId errors.request-id's. */
const FailureShape = FailureEnvelope.extend({
  error: ErrorBody.extend({ code: z.string().min(1) }),
  meta: Meta.extend({ requestId: z.unknown().optional(), version: z.unknown().optional() }),
});
const issues = (e: z.ZodError) =>
  e.issues
    .slice(0, 5)
    .map((i) => `${i.path.join('.') || '(root)'}: ${i.message}`)
    .join('; ');
const codeOf = (ex: Exchange) => (ex.json as { error?: { code?: unknown } } | undefined)?.error?.code;

/** Whether the code is one of the Errors table and the status the one it pairs with; the failure text if not. */
export function pairingProblem(ex: Exchange): string | undefined {
  const code = codeOf(ex);
  if (typeof code !== 'string') return `no error.code (status ${ex.status})`;
  const entry = (ERROR_TABLE as Record<string, { status: number } | undefined>)[code];
  if (!entry) return `error.code ${code} is not in the Errors table (status ${ex.status})`;
  if (entry.status !== ex.status)
    return `error.code ${code} came with status ${ex.status}; the table pairs it with ${entry.status}`;
  return undefined;
}

export const failureEnvelope = defineCheck({
  name: 'errors.failure-envelope',
  title: 'every error answers with the failure envelope {ok: false, error: {code, message, detail?, hint?}, meta}',
  severity: 'MUST',
  section: 'Failure envelope (every error response)',
  tags: ['errors', 'envelope'],
  mutating: false,
  async run(ctx) {
    for (const p of errorAnswers(await errorProbes(ctx))) {
      const parsed = FailureShape.safeParse(p.ex.json);
      ctx.expect.that(parsed.success, {
        expected: `${p.what}: the answer is the failure envelope`,
        observed: parsed.error ? issues(parsed.error) : '',
        exchange: p.ex,
      });
    }
  },
});

export const codeStatusPairing = defineCheck({
  name: 'errors.code-status-pairing',
  title: 'every error code is one of the Errors table and comes with the status the table pairs with it',
  severity: 'MUST',
  section: 'Errors',
  tags: ['errors'],
  mutating: false,
  async run(ctx) {
    for (const p of errorAnswers(await errorProbes(ctx))) {
      const problem = pairingProblem(p.ex);
      ctx.expect.that(problem === undefined, {
        expected: `${p.what}: a code of the Errors table with its status`,
        observed: problem ?? '',
        exchange: p.ex,
      });
    }
  },
});

export const errorRequestId = defineCheck({
  name: 'errors.request-id',
  title: 'every error carries meta.requestId',
  severity: 'MUST',
  section: 'Errors',
  tags: ['errors', 'meta'],
  mutating: false,
  async run(ctx) {
    for (const p of errorAnswers(await errorProbes(ctx))) {
      const id = (p.ex.json as { meta?: { requestId?: unknown } } | undefined)?.meta?.requestId;
      ctx.expect.that(typeof id === 'string' && id.length > 0, {
        expected: `${p.what}: the error carries meta.requestId`,
        observed: `meta.requestId ${JSON.stringify(id)}`,
        exchange: p.ex,
      });
    }
  },
});

export const noLeaks = defineCheck({
  name: 'errors.no-leaks',
  title: 'errors reveal no internals (stack traces, file paths) and echo no token or secret',
  severity: 'MUST',
  section: 'Errors',
  tags: ['errors', 'security'],
  mutating: false,
  async run(ctx) {
    const secrets = ctx.secrets().map((value) => ({ value, what: 'a secret of the run (token or client secret)' }));
    for (const p of errorAnswers(await errorProbes(ctx))) {
      const sent = bearerOf(p.ex.requestHeaders);
      const answer = `${JSON.stringify(p.ex.headers)}\n${p.ex.text}`;
      const leaks = findLeaks(answer, [
        ...(sent ? [{ value: sent, what: 'the bearer token sent with the request' }] : []),
        ...secrets.filter((s) => s.value !== sent),
      ]);
      ctx.expect.that(leaks.length === 0, {
        expected: `${p.what}: the error holds the request identifier and nothing internal`,
        observed: leaks.join('; '),
        exchange: p.ex,
      });
    }
  },
});

export const invalidRequest = defineCheck({
  name: 'errors.invalid-request',
  title: 'a body with missing fields, wrong types or broken JSON answers 400 invalid_request',
  severity: 'MUST',
  section: 'Errors',
  tags: ['errors', 'validation'],
  mutating: false,
  requires: ['token'],
  async run(ctx) {
    const probes = (await errorProbes(ctx)).filter(
      (p): p is Probe & { expected: 'invalid_request' } => p.expected === 'invalid_request',
    );
    for (const p of probes) ctx.expect.errorCode(p.ex, 'invalid_request', `${p.what} answers 400 invalid_request`);
  },
});

export const unknownRoute = defineCheck({
  name: 'errors.unknown-route',
  title:
    'an unknown path (at either address), an unoffered method or another spelling of a route refused answers with the failure envelope and a code of the table',
  severity: 'SHOULD',
  section: 'Errors',
  tags: ['errors', 'envelope'],
  mutating: false,
  async run(ctx) {
    for (const p of await undefinedCallProbes(ctx)) {
      if (p.mayServe && p.ex.status < 400) continue;
      if (
        !ctx.expect.that(p.ex.status >= 400 && p.ex.status < 500, {
          expected: `${p.what} is refused with a 4xx status`,
          exchange: p.ex,
        })
      )
        continue;
      const problem = FailureShape.safeParse(p.ex.json).success ? pairingProblem(p.ex) : 'not the failure envelope';
      ctx.expect.that(problem === undefined, {
        expected: `${p.what}: the failure envelope with a code of the Errors table and its status`,
        observed: problem ?? '',
        exchange: p.ex,
      });
    }
  },
});

export const errorChecks = [failureEnvelope, codeStatusPairing, errorRequestId, noLeaks, invalidRequest, unknownRoute];
