import { z } from 'zod';

const CheckInfo = z.object({
  name: z.string(),
  area: z.string(),
  title: z.string(),
  severity: z.enum(['MUST', 'SHOULD']),
  section: z.string(),
  tags: z.array(z.string()),
  mutating: z.boolean(),
});
const Failure = z.object({
  expected: z.string(),
  observed: z.string(),
  request: z.string().optional(),
  status: z.number().int().optional(),
  requestId: z.string().optional(),
  curl: z.string().optional(),
  response: z.string().optional(),
  /** For two answers compared: each differing field. */
  diff: z.array(z.object({ path: z.string(), expected: z.string(), observed: z.string() })).optional(),
});

/** The document the json reporter writes (conformance.json): stable for CI tooling to read. */
export const JsonReport = z.strictObject({
  format: z.literal('ncs-conformance-report/1'),
  runId: z.string(),
  startedAt: z.iso.datetime().optional(),
  durationMs: z.number().nonnegative(),
  exitCode: z.union([z.literal(0), z.literal(1), z.literal(2)]),
  error: z.string().optional(),
  /** What the kit had to cut, assume or work around (body caps, discovered token endpoint, ...). */
  notices: z.array(z.string()).optional(),
  /** Set when the run stopped early (--max-failures, --fail-fast): after how many failed MUSTs, how many not run. */
  stopped: z.object({ maxFailures: z.number().int().positive(), notRun: z.number().int().nonnegative() }).optional(),
  target: z
    .object({
      baseUrl: z.string(),
      altBaseUrl: z.string().optional(),
      tenant: z.string().optional(),
      environment: z.string().optional(),
      credentials: z.enum(['token', 'client-credentials', 'none']),
    })
    .optional(),
  profile: z.enum(['full', 'read-only']).optional(),
  allowMutations: z.boolean().optional(),
  /** Seed of the generated probes: `--seed <n>` repeats them. */
  seed: z.number().int().nonnegative().optional(),
  summary: z.object({
    total: z.number().int(),
    passed: z.number().int(),
    failed: z.number().int(),
    skipped: z.number().int(),
    mustFailed: z.number().int(),
    shouldFailed: z.number().int(),
    errored: z.number().int(),
    /** Of the skipped: not run because the run stopped early (--max-failures). */
    notRun: z.number().int().optional(),
    /** What was judged (passed or failed, not skipped), and whether --require was met. */
    coverage: z.object({
      total: z.number().int(),
      judged: z.number().int(),
      mustTotal: z.number().int(),
      mustJudged: z.number().int(),
      skippedForCredentials: z.number().int(),
      requirement: z.object({ wanted: z.string(), met: z.boolean(), shortfall: z.string().optional() }).optional(),
    }),
  }),
  results: z.array(
    z.object({
      check: CheckInfo,
      status: z.enum(['pass', 'fail', 'skip']),
      durationMs: z.number().nonnegative(),
      failures: z.array(Failure),
      notes: z.array(z.string()),
      reason: z.string().optional(),
      error: z.string().optional(),
      errorKind: z.enum(['connection', 'fault']).optional(),
      /** Skipped because the run stopped early (--max-failures). */
      notRun: z.literal(true).optional(),
    }),
  ),
});
export type JsonReport = z.infer<typeof JsonReport>;
