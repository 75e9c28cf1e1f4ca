import { readFileSync } from 'node:fs';
import { z } from 'zod';
import { Environment } from '../../simulator/contract/environment.ts';
import { ROUTE_BY_ID } from '../../simulator/contract/route-table.ts';
import { WEBHOOK_DEFAULTS } from '../../simulator/contract/simulator-defaults.ts';

/** The simulator's path of a route: the default where the interface shows no path. */
function simulatorPath(id: string): string {
  const route = ROUTE_BY_ID.get(id);
  if (!route) throw new Error(`the route table has no ${id}`);
  return route.path;
}

/**
 * What a check needs to know about a deployment that the interface does not show. The defaults are
 * the simulator's values; a deployment that chose differently describes itself in a JSON file
 * (--deployment-profile) so the kit never fails it for a choice the interface left open.
 */
/** The SHA-2 and SHA-3 digests node:crypto computes, for a declared audit entry hash (baobab hashes with SHA3-256). */
export const HASH_ALGORITHMS = ['sha256', 'sha384', 'sha512', 'sha3-256', 'sha3-384', 'sha3-512'] as const;

export const DeploymentProfile = z.strictObject({
  /** The environment the deployment is (production makes the read-only profile the default). */
  environment: Environment.optional(),
  /**
   * Token endpoint for client credentials, relative to the base URL's origin or absolute. Absent: the
   * kit discovers it (RFC 8414 authorization server metadata, then the self-description's
   * authentication object), else tries the simulator's /oauth/token. The client authenticates with the
   * method discovered metadata lists (token_endpoint_auth_methods_supported); declared here, no metadata
   * is read: client_secret_basic, then client_secret_post after a refusal.
   */
  tokenEndpoint: z.string().min(1).optional(),
  /**
   * Further parameters the token endpoint needs in a client credentials request (its parameters are not
   * shown): an Auth0 tenant without a default audience refuses a request without `audience`, Azure AD v1
   * asks for `resource`. Sent as form fields beside grant_type; --token-params adds to them.
   */
  tokenRequestParams: z.record(z.string().min(1), z.string()).optional(),
  /**
   * How long the kit waits for a webhook delivery, milliseconds (the interface shows no delivery
   * time). Default 10 s, enough for a loaded staging deployment; --webhook-timeout overrides it.
   */
  webhookDeliveryWaitMs: z.int().min(1).max(600_000).default(10_000),
  /**
   * How long the kit waits for a status message it expects on the stream, milliseconds (the interface
   * shows no latency: an outbox relayed every few seconds is legal). Default 10 s; the wait ends as soon
   * as the message arrives. --stream-timeout overrides it.
   */
  streamMessageWaitMs: z.int().min(1).max(600_000).default(10_000),
  /**
   * How long a connection may take to show in GET /connections after its creation was answered,
   * milliseconds (the interface promises no read-after-write: a list served from an index updated
   * afterwards is legal). The kit reads the list again until what it expects is there or this wait ends;
   * a list that is up to date at once costs nothing. Default 3 s.
   */
  listConsistencyWaitMs: z.int().min(0).max(600_000).default(3_000),
  /**
   * Header carrying t=<unix-seconds>,v1=<hex> on webhook deliveries (the interface does not show its
   * name). Absent: the kit discovers it, as the header whose value has that form.
   */
  webhookSignatureHeader: z.string().min(1).optional(),
  /**
   * Where the deployment can deliver webhooks to the kit's own receiver (which always listens on
   * 127.0.0.1, port webhookReceiverPort). null: the receiver's loopback address when the base URL is
   * loopback, else the webhook checks are skipped. "loopback": the deployment reaches 127.0.0.1 (it
   * runs on this machine or in this process). A URL: a public address forwarded to the receiver's port
   * (e.g. a tunnel); the kit appends one path segment per receiver it registers.
   */
  webhookReceiverUrl: z
    .union([z.literal('loopback'), z.url({ protocol: /^https?$/ })])
    .nullable()
    .default(null),
  /** Port of the kit's receiver on 127.0.0.1 (0: any free port). */
  webhookReceiverPort: z.int().min(0).max(65_535).default(0),
  /**
   * Event a connection creation triggers: the kit subscribes its receiver to it and creates a connection.
   * The interface shows no such event. Absent: the kit tries the simulator's (connection.created) and
   * skips, instead of failing, when the deployment refuses it or delivers nothing.
   */
  webhookTestEvent: z.string().min(1).optional(),
  /**
   * Field of the creation answer's data that carries the signing key (shown exactly once), or a dotted
   * path under data (`credentials.signingKey`). Undeclared: this default, else the value of the answer
   * that verifies a delivery's signature, else the one field named like a secret or key.
   */
  webhookSecretField: z.string().min(1).default('signingSecret'),
  /** Event names a webhook receiver can subscribe to (the interface shows two samples). */
  webhookEventNames: z.array(z.string().min(1)).min(1).default(['order.created', 'order.paid']),
  /** Names of the status-stream message kinds; empty: any name is accepted. */
  streamEventNames: z.array(z.string().min(1)).default([]),
  /**
   * How the kit removes the webhook receivers it registered, so repeated runs leave none behind: a path
   * template with {webhookId}, called with DELETE and an Idempotency-Key. Absent: the simulator's
   * path (a 404 or 405 there means the deployment offers none, and the receiver stays); null: never try.
   */
  webhookDeletePath: z.string().startsWith('/').includes('{webhookId}').nullable().optional(),
  /**
   * Path of a receiver's delivery log, a template with {webhookId}, answered to GET (the interface says
   * the delivery log's paths are not shown). Undeclared: the one the deployment publishes (webhook-routes.ts),
   * else the simulator's; a 404 there skips the checks that read it. null: the deployment has no delivery log, and those checks are skipped.
   */
  webhookDeliveryLogPath: z
    .string()
    .startsWith('/')
    .includes('{webhookId}')
    .nullable()
    .default(simulatorPath('listDeliveries')),
  /**
   * Path that triggers a logged delivery again, a template with {deliveryId} and, where the deployment
   * nests it under its receiver, {webhookId}, called with POST and an Idempotency-Key (the interface does
   * not show it). Undeclared: the one the deployment publishes, else the simulator's; a 404 there skips
   * webhooks.redelivery. null: the deployment
   * offers none, and that check is skipped.
   */
  webhookRedeliverPath: z
    .string()
    .startsWith('/')
    .includes('{deliveryId}')
    .nullable()
    .default(simulatorPath('redeliver')),
  /**
   * Header of a delivery that names its id in the delivery log (the interface names no such header).
   * Default: the simulator's NCS-Delivery. null: the deployment sends none, and the kit finds a delivery
   * in the log by the event id in its body only.
   */
  webhookDeliveryIdHeader: z.string().min(1).nullable().default(WEBHOOK_DEFAULTS.deliveryHeader),
  /**
   * A bounded burst of authenticated GETs the kit may send to provoke a 429 when it has no control plane
   * (or no admin token) to arm a rate_limited fault with (the interface does not show the limits). At
   * most maxCalls calls, 10 at a time, within maxMillis; the burst uses up the access's window, so other
   * checks may wait out a Retry-After. null (default): never, and rate-limit.retry-after is skipped.
   */
  rateLimitBurst: z
    .strictObject({
      /** At most this many calls (hard bound 2000). */
      maxCalls: z.int().min(1).max(2_000),
      /** Within at most this many milliseconds (hard bound 60 s). */
      maxMillis: z.int().min(100).max(60_000),
    })
    .nullable()
    .default(null),
  /**
   * How an audit entry's own hash is computed (the interface shows no proof format), so the kit recomputes
   * every entry it reads (audit.entry-hash). `input` is a template over the entry's fields: `{seq}` a
   * field's value (dotted paths reach nested fields, objects as RFC 8785 JSON), `{@canonical}` the RFC 8785
   * JSON of the entry without `field` and the fields `exclude` names; e.g. `{prevHash}|{seq}|{at}|{action}`.
   * Undeclared: the kit tries common formulas (canonical JSON, after the previous hash or not; SHA-2 or SHA-3 of 256/384/512 bits;
   * hex or base64) and judges only one that recomputes the entries. null: entries carry no hash to recompute.
   */
  auditEntryHash: z
    .strictObject({
      field: z.string().min(1),
      algorithm: z.enum(HASH_ALGORITHMS).default('sha256'),
      encoding: z.enum(['hex', 'base64', 'base64url']).default('hex'),
      input: z.string().min(1).default('{@canonical}'),
      exclude: z.array(z.string().min(1)).default([]),
    })
    .nullable()
    .optional(),
  /**
   * A signature as the audit log's proof: the field that carries it (a name, or a path under data such as
   * `proof.signature`), the public key (a JWK or PEM; absent: the key the answer shows) and the signed text
   * (a template over the object holding the signature, as auditEntryHash's `input`, e.g. `{head}`).
   * Undeclared: the kit finds signatures by name and judges one only by a scheme that verifies another.
   * null: the audit log carries no signature.
   */
  auditSignature: z
    .strictObject({
      field: z.string().min(1).optional(),
      publicKey: z.union([z.string().min(1), z.looseObject({ kty: z.string() })]).optional(),
      input: z.string().min(1).optional(),
    })
    .nullable()
    .optional(),
  /** Path of a sandbox control plane (reset, clock, faults); null when the deployment has none. */
  controlPlanePath: z.string().startsWith('/').nullable().default('/_sandbox'),
  /**
   * A connection creation the deployment refuses with 409 capability_denied (the interface names the
   * code, not a case the kit could provoke everywhere). "unoffered-capability": a capability of the
   * catalog that the chosen connector does not list; an object: that exact creation; null: skip.
   */
  capabilityDeniedCase: z
    .union([
      z.literal('unoffered-capability'),
      z.strictObject({
        connectorId: z.string().min(1),
        capability: z.string().min(1),
        environment: Environment.optional(),
      }),
    ])
    .nullable()
    .default(null),
});
export type DeploymentProfile = z.infer<typeof DeploymentProfile>;

/** The simulator's values. */
export const DEFAULT_DEPLOYMENT_PROFILE: DeploymentProfile = DeploymentProfile.parse({});

/** A profile given partly in code or a file is completed with the defaults; problems name the field. */
export function parseDeploymentProfile(input: unknown, source = 'deployment profile'): DeploymentProfile {
  const parsed = DeploymentProfile.safeParse(input ?? {});
  if (!parsed.success) {
    const problems = parsed.error.issues.map((i) => `${i.path.join('.') || '(root)'}: ${i.message}`).join('; ');
    throw new Error(`${source} is not valid: ${problems}`);
  }
  return parsed.data;
}

/**
 * @example const profile = loadDeploymentProfile('./staging-profile.json');
 */
export function loadDeploymentProfile(file: string): DeploymentProfile {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch {
    throw new Error(`cannot read the deployment profile ${file}`);
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    throw new Error(`the deployment profile ${file} is not JSON`);
  }
  return parseDeploymentProfile(json, `the deployment profile ${file}`);
}
