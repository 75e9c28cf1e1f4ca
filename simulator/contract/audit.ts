import { z } from 'zod';
import { AUDIT_DEFAULTS } from './simulator-defaults.ts';

export const AuditEntry = z
  .looseObject({
    seq: z.int(),
    requestId: z.string(),
    actor: z.string().describe('Client id, sandbox-admin or system'),
    action: z.string(),
    target: z.string().describe('<type>:<id>'),
    at: z.iso.datetime(),
    tenant: z.string(),
    prevHash: z.string(),
    hash: z.string().describe('sha256 hex of the canonical entry without hash'),
  })
  .meta({ id: 'AuditEntry' });

export const AuditProof = z
  .looseObject({
    algorithm: z.literal('sha256'),
    canonicalization: z.string(),
    fromSeq: z.int(),
    toSeq: z.int(),
    anchorPrevHash: z.string(),
    headHash: z.string(),
    chainHead: z.object({ seq: z.int(), hash: z.string() }),
    signature: z
      .string()
      .optional()
      .describe(
        'Ed25519 signature (base64url) over the RFC 8785 JSON of this proof without signature and publicKeyJwk',
      ),
    publicKeyJwk: z
      .object({ kty: z.literal('OKP'), crv: z.literal('Ed25519'), x: z.string() })
      .optional()
      .describe("The sandbox's public key for signature (a fresh one per sandbox process)"),
  })
  .meta({ id: 'AuditProof' });

export const AuditQuery = z.object({
  limit: z.coerce
    .number()
    .int()
    .min(1)
    .max(AUDIT_DEFAULTS.maxLimit)
    .optional()
    .describe(`Entries, newest first (default ${AUDIT_DEFAULTS.defaultLimit})`),
  before: z.coerce
    .number()
    .int()
    .min(1)
    // Stated in the schema (and so in the OpenAPI document and validation): 1e308 is an "integer" to
    // JSON Schema, and a bound no sequence number can reach keeps it a 400 instead of a fault.
    .max(Number.MAX_SAFE_INTEGER)
    .optional()
    .describe('Only entries with a smaller seq: page backwards by sending the fromSeq of the page you have'),
});
export const AuditLogData = z.object({
  tenant: z.string(),
  count: z.int(),
  entries: z.array(AuditEntry),
  proof: AuditProof,
});
