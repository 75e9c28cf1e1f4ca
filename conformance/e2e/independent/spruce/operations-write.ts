// Modifying operations. Each runs synchronously after validation and the idempotency lookup, so two
// concurrent calls with one key cannot both create (Node runs one of them to the end first).
import { capabilityById, connectorById } from './catalog.ts';
import { ApiError } from './http-kit.ts';
import type { Call } from './routes.ts';
import { newId } from './util.ts';
import { environment, text, textList } from './validate.ts';
import { EVENT_TYPES, SIGNATURE_HEADER } from './webhooks.ts';

export function validateConnection(body: Record<string, unknown>) {
  return {
    connectorId: text(body, 'connectorId', 2, 120),
    environment: environment(body, 'environment'),
    scopeLabel: text(body, 'scopeLabel', 2, 120),
    capabilities: textList(body, 'capabilities', 1, 24, 2, 120),
  };
}

export function createConnection({ ctx, deps, tenant, clientId }: Call, input: unknown): unknown {
  const v = input as ReturnType<typeof validateConnection>;
  const connector = connectorById(v.connectorId);
  if (!connector)
    throw new ApiError('not_found', `The connector ${v.connectorId} does not exist.`, {
      target: 'connectorId',
      hint: 'Pick a connector from GET /connectors.',
    });
  const missing = v.capabilities.filter((c) => !connector.capabilities.includes(c));
  if (missing.length > 0) {
    throw new ApiError('capability_denied', `The connector does not offer ${missing.join(', ')}.`, {
      target: 'capabilities',
      hint: 'Have the capability released, or pick one the connector lists.',
    });
  }
  const capabilities = v.capabilities.map((id) => {
    const c = capabilityById(id);
    return { capability: id, critical: c?.critical ?? false, idempotencyRequired: c?.idempotencyRequired ?? false };
  });
  const conn = deps.connections.create(tenant, {
    connectorId: v.connectorId,
    environment: v.environment,
    scopeLabel: v.scopeLabel,
    capabilities,
  });
  deps.audit.append(tenant, {
    action: 'connection.create',
    actor: clientId,
    target: { type: 'connection', id: conn.id },
    requestId: ctx.requestId,
    idempotencyKey: ctx.idempotencyKey,
  });
  return conn;
}

export function validateKeyRequest(body: Record<string, unknown>) {
  return { operation: text(body, 'operation', 2, 80) };
}

export function issueKey(_call: Call, input: unknown): unknown {
  const { operation } = input as { operation: string };
  return {
    idempotencyKey: `idk_${newId().replaceAll('-', '')}`,
    operation,
    expiresAt: new Date(Date.now() + 24 * 3600_000).toISOString(),
  };
}

export function validateWebhook(body: Record<string, unknown>) {
  const url = text(body, 'url', 8, 2048);
  let parsed: URL | undefined;
  try {
    parsed = new URL(url);
  } catch {
    parsed = undefined;
  }
  if (!parsed || (parsed.protocol !== 'https:' && parsed.protocol !== 'http:') || parsed.username || parsed.password) {
    throw new ApiError('invalid_request', 'The field url must be an absolute http(s) URL without credentials.', {
      target: 'url',
    });
  }
  const events = textList(body, 'events', 1, 16, 2, 120);
  const unknown = events.filter((e) => !(EVENT_TYPES as readonly string[]).includes(e));
  if (unknown.length > 0) {
    throw new ApiError('invalid_request', `Unknown event names: ${unknown.join(', ')}.`, {
      target: 'events',
      hint: `Known events: ${EVENT_TYPES.join(', ')}.`,
    });
  }
  return { url, events };
}

export function createWebhook({ ctx, deps, tenant, clientId }: Call, input: unknown): unknown {
  const { url, events } = input as ReturnType<typeof validateWebhook>;
  const { webhook, signingKey } = deps.webhooks.register(tenant, url, events);
  deps.audit.append(tenant, {
    action: 'webhook.create',
    actor: clientId,
    target: { type: 'webhook', id: webhook.id },
    requestId: ctx.requestId,
    idempotencyKey: ctx.idempotencyKey,
  });
  return {
    ...webhook,
    signatureHeader: 'Spruce-Signature',
    secret: { value: signingKey, algorithm: 'HMAC-SHA256', note: 'Shown once. Store it now.' },
  };
}

export function deleteWebhook({ ctx, deps, tenant, clientId, params }: Call): unknown {
  const id = params.webhookId ?? '';
  if (!deps.webhooks.remove(tenant, id))
    throw new ApiError('not_found', 'The webhook does not exist.', {
      hint: 'Compare the identifier and the tenant header.',
    });
  deps.audit.append(tenant, {
    action: 'webhook.delete',
    actor: clientId,
    target: { type: 'webhook', id },
    requestId: ctx.requestId,
    idempotencyKey: ctx.idempotencyKey,
  });
  return { id, status: 'Deleted' };
}

export function retryAttempt({ ctx, deps, tenant, clientId, params }: Call): unknown {
  const attempt = deps.webhooks.redeliver(tenant, params.webhookId ?? '', params.attemptId ?? '');
  if (!attempt)
    throw new ApiError('not_found', 'The delivery attempt does not exist.', {
      hint: 'Compare the identifiers and the tenant header.',
    });
  deps.audit.append(tenant, {
    action: 'webhook.redeliver',
    actor: clientId,
    target: { type: 'deliveryAttempt', id: attempt.id },
    requestId: ctx.requestId,
    idempotencyKey: ctx.idempotencyKey,
  });
  return { attempt, signatureHeader: SIGNATURE_HEADER };
}
