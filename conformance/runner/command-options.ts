import {
  defineOptions,
  type OptionsOf,
  parsedOption,
  switchOption,
  textOption,
} from '../../simulator/contract/option-table.ts';
import type { ProfileName } from './check.ts';

/**
 * `ncs conformance run`'s options, each declared once: flag, environment variable, reader, help.
 * Commander's flags (bin/cli/commands/conformance-run.ts), `optionsFromEnv` and the ConformanceOptions
 * type come from this table; a new option is one row here (and its use in resolveOptions).
 * Numbers are read as numbers only; resolveOptions says what is wrong with them, naming the flag.
 */
export const RUN_OPTIONS = defineOptions({
  baseUrl: textOption('--base-url <url>', 'the deployment, e.g. https://staging.example', 'NCS_BASE_URL'),
  altBaseUrl: textOption('--alt-base-url <url>', 'its second address', 'NCS_ALT_BASE_URL'),
  tenant: textOption('--tenant <id>', 'x-service-tenant for authenticated calls', 'NCS_TENANT'),
  token: textOption('--token <token>', 'bearer token', 'NCS_TOKEN'),
  clientId: textOption('--client-id <id>', 'client credentials instead of --token', 'NCS_CLIENT_ID'),
  clientSecret: textOption('--client-secret <secret>', 'the client secret', 'NCS_CLIENT_SECRET'),
  tokenUrl: textOption(
    '--token-url <url>',
    "token endpoint (default: the profile's tokenEndpoint, else discovered from RFC 8414 metadata)",
    'NCS_TOKEN_URL',
  ),
  scope: textOption('--scope <scopes>', 'scopes to request with client credentials', 'NCS_SCOPE'),
  tokenParams: textOption(
    '--token-params <form>',
    "further parameters of the token request, form-encoded, e.g. audience=https%3A%2F%2Fapi.example (an Auth0 audience, an Azure resource); beside the profile's tokenRequestParams",
    'NCS_TOKEN_PARAMS',
  ),
  otherTenant: textOption(
    '--other-tenant <id>',
    'a second tenant the same credentials may act for: tenant-isolation checks',
    'NCS_OTHER_TENANT',
  ),
  foreignTenant: textOption(
    '--foreign-tenant <id>',
    'a tenant the credentials are NOT released for: the 403 forbidden check',
    'NCS_FOREIGN_TENANT',
  ),
  adminToken: textOption(
    '--admin-token <token>',
    'admin token of the sandbox control plane: checks that arm faults',
    'NCS_ADMIN_TOKEN',
  ),
  profile: parsedOption(
    '--profile <profile>',
    'full or read-only (default: read-only for production targets)',
    (t) => t as ProfileName,
    'NCS_PROFILE',
  ),
  environment: textOption('--environment <env>', 'declare the target environment, e.g. production', 'NCS_ENVIRONMENT'),
  allowMutations: switchOption(
    '--allow-mutations',
    'let modifying checks run against production',
    'NCS_ALLOW_MUTATIONS',
  ),
  grep: textOption('--grep <pattern>', 'only checks whose name, tag or section matches', 'NCS_GREP'),
  timeoutMs: parsedOption('--timeout <ms>', 'per request, milliseconds (default 10000)', Number, 'NCS_TIMEOUT'),
  concurrency: parsedOption('--concurrency <n>', 'checks run at once (default 4)', Number, 'NCS_CONCURRENCY'),
  webhookTimeoutMs: parsedOption(
    '--webhook-timeout <ms>',
    'how long to wait for a webhook delivery (default 10000; profile webhookDeliveryWaitMs)',
    Number,
    'NCS_WEBHOOK_TIMEOUT',
  ),
  streamTimeoutMs: parsedOption(
    '--stream-timeout <ms>',
    'how long to wait for an expected stream message (default 10000; profile streamMessageWaitMs)',
    Number,
    'NCS_STREAM_TIMEOUT',
  ),
  require: textOption(
    '--require <coverage>',
    'fail (exit 1) unless this much was judged: a fraction (0.8, 80%) or check names (comma-separated)',
    'NCS_REQUIRE',
  ),
  maxBodyBytes: parsedOption(
    '--max-body-bytes <n>',
    'bytes of one answer the kit reads at most (default 2 MiB)',
    Number,
    'NCS_MAX_BODY_BYTES',
  ),
  maxStreamBytes: parsedOption(
    '--max-stream-bytes <n>',
    'bytes of one event stream the kit reads at most (default 4 MiB)',
    Number,
    'NCS_MAX_STREAM_BYTES',
  ),
  failFast: switchOption(
    '--fail-fast',
    'stop after the first failed MUST check (same as --max-failures 1); the rest are reported as not run',
    'NCS_FAIL_FAST',
  ),
  maxFailures: parsedOption(
    '--max-failures <n>',
    'stop after n failed MUST checks: no new check starts, running ones are cancelled and reported as not run',
    Number,
    'NCS_MAX_FAILURES',
  ),
  seed: parsedOption(
    '--seed <n>',
    'seed of the generated probes, to repeat a run (default random, printed)',
    Number,
    'NCS_SEED',
  ),
  deploymentProfile: textOption(
    '--deployment-profile <file>',
    'JSON file with what the interface does not show',
    'NCS_DEPLOYMENT_PROFILE',
  ),
});

/** How `ncs conformance run` reports (the command's own options, not the library's). */
export const REPORT_OPTIONS = defineOptions({
  reporter: textOption('--reporter <list>', 'console,json,junit,html', 'NCS_REPORTER'),
  output: textOption(
    '--output <dir>',
    'directory for json, junit and html reports (default conformance-results)',
    'NCS_OUTPUT',
  ),
});

/** The options of the table, as flags and NCS_* variables give them. */
export type RunTableOptions = OptionsOf<typeof RUN_OPTIONS>;
