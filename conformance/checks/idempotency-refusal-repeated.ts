// "Sending the same key with the same content returns the same response again": a creation the service refuses
// (a connector it does not know) is a response too. Sent again with its key and content, it is refused alike, the
// same status and code, never created meanwhile; whether the refusal was stored (a replay, marked) or the call run
// again is the deployment's. The marks are judged run-wide (generated.idempotency-key-echo: a repeat answered
// alike names its key where the first answer did; generated.replay-after-a-first-call).
import { recordRefused } from '../generated/trace.ts';
import { type CheckContext, defineCheck } from '../runner/check.ts';
import { CONNECTIONS_PATH, freshKey, postConnection, requireCreationBase } from './support/connections.ts';

const codeOf = (ex: { json?: unknown }) => (ex.json as { error?: { code?: unknown } } | undefined)?.error?.code;

export const refusalRepeated = defineCheck({
  name: 'idempotency.refusal-repeated',
  title:
    'a creation refused (a connector the service does not know) and sent again with its key and content is refused alike: the same status and error code, nothing created',
  severity: 'MUST',
  section: 'POST /api/public/v1/connections',
  tags: ['idempotency', 'errors'],
  mutating: true,
  requires: ['token'],
  async run(ctx: CheckContext) {
    const base = await requireCreationBase(ctx);
    const scopeLabel = ctx.label('refused-twice');
    const body = { ...base, connectorId: ctx.label('connector'), scopeLabel };
    const key = freshKey(ctx);
    const first = await postConnection(ctx, body, { key });
    if (first.status < 400 || first.status >= 500 || first.status === 429)
      return ctx.skip(
        `POST ${CONNECTIONS_PATH()} naming an unknown connector answered ${first.status}: no refusal to repeat`,
      );
    const again = await postConnection(ctx, body, { key });
    // The label is looked for after the run: a refusal writes nothing (generated.refused-left-no-trace).
    await recordRefused(
      ctx,
      `POST ${CONNECTIONS_PATH()} refused ${first.status} (idempotency.refusal-repeated)`,
      [scopeLabel],
      scopeLabel,
    );
    if (again.status === 429) return ctx.note('the repeat answered 429: not judged');
    ctx.expect.that(again.status === first.status && codeOf(again) === codeOf(first), {
      expected: `POST ${CONNECTIONS_PATH()} refused ${first.status} ${String(codeOf(first))}, sent again with the same key and content, is refused alike ("the same response again")`,
      observed: `${again.status} ${String(codeOf(again) ?? '')}`.trim(),
      exchange: again,
    });
  },
});
