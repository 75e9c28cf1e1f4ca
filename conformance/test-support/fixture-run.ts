import type { CheckInfo } from '../runner/check.ts';
import type { CheckResult, RunEvent } from '../runner/events.ts';
import { summarise } from '../runner/events.ts';

const info = (name: string, severity: 'MUST' | 'SHOULD' = 'MUST'): CheckInfo => ({
  name,
  area: name.split('.')[0] ?? name,
  title: `rule of ${name}`,
  severity,
  section: 'Errors',
  tags: [],
  mutating: false,
});

/** Test fixture: a run with one result of every kind, with text that needs escaping (reporters' tests). */
export function fixtureRun(): RunEvent[] {
  const results: CheckResult[] = [
    { check: info('errors.passes'), status: 'pass', durationMs: 12, failures: [], notes: [] },
    {
      check: info('errors.leaks'),
      status: 'fail',
      durationMs: 30,
      notes: ['a note & more'],
      failures: [
        {
          expected: 'GET /providers: the error holds <nothing> internal',
          observed: 'a stack frame: "at x (/srv/a.ts:1:2)"',
          request: 'GET http://127.0.0.1:4010/api/public/v1/providers',
          status: 401,
          requestId: 'req_abc123',
          curl: `curl -sS -i 'http://127.0.0.1:4010/api/public/v1/providers' -H 'authorization: Bearer '"$NCS_TOKEN"`,
          response: '{"ok":false}',
        },
      ],
    },
    {
      check: info('envelope.header', 'SHOULD'),
      status: 'fail',
      durationMs: 5,
      notes: [],
      failures: [{ expected: 'X-Request-Id present', observed: 'absent', requestId: 'req_def' }],
    },
    {
      check: info('base-urls.alt'),
      status: 'skip',
      durationMs: 0,
      failures: [],
      notes: [],
      reason: 'no alternate base URL: pass --alt-base-url',
    },
    {
      check: info('envelope.lost'),
      status: 'fail',
      durationMs: 1,
      failures: [],
      notes: [],
      error: 'cannot reach http://x: ECONNRESET',
      errorKind: 'connection',
    },
  ];
  return [
    {
      type: 'run-start',
      runId: 'abcd1234',
      startedAt: '2026-07-01T10:00:00.000Z',
      profile: 'full',
      allowMutations: true,
      target: {
        baseUrl: 'http://127.0.0.1:4010',
        tenant: 'harbour-kitchens',
        credentials: 'token',
        environment: 'sandbox',
      },
      checks: results.map((r) => r.check),
    },
    ...results.flatMap((result): RunEvent[] => [
      ...(result.status === 'skip' ? [] : [{ type: 'check-start' as const, check: result.check }]),
      { type: `check-${result.status}` as 'check-pass', result },
    ]),
    {
      type: 'run-end',
      runId: 'abcd1234',
      durationMs: 48,
      summary: summarise(results),
      exitCode: 2,
      results,
      error: 'the target stopped answering during the run',
    },
  ];
}
