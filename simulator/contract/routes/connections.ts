import { z } from 'zod';
import { Connection, ConnectionsData, CreateConnectionBody } from '../connections.ts';
import { CreateIdempotencyKeyBody, IdempotencyKeyResult } from '../idempotency.ts';
import { defineRoutes } from '../route-def.ts';
import { BASE_PATH } from '../versions.ts';

export const connectionRoutes = defineRoutes([
  {
    id: 'listConnections',
    method: 'GET',
    path: `${BASE_PATH}/connections`,
    purpose: 'connections of the tenant',
    tags: ['connections'],
    auth: true,
    scope: 'connections:read',
    data: ConnectionsData,
  },
  {
    id: 'createConnection',
    method: 'POST',
    path: `${BASE_PATH}/connections`,
    purpose: 'create a connection',
    tags: ['connections'],
    auth: true,
    scope: 'connections:write',
    idempotent: true,
    body: CreateConnectionBody,
    data: Connection,
    errors: ['not_found', 'capability_denied'],
  },
  {
    id: 'getConnection',
    method: 'GET',
    path: `${BASE_PATH}/connections/{connectionId}`,
    purpose: 'one connection of the tenant',
    tags: ['connections'],
    auth: true,
    scope: 'connections:read',
    params: z.object({ connectionId: z.string().min(1).max(200) }),
    data: Connection,
    errors: ['not_found'],
    addition: true,
  },
  {
    id: 'createIdempotencyKey',
    method: 'POST',
    path: `${BASE_PATH}/idempotency-keys`,
    purpose: 'generate an idempotency key',
    tags: ['idempotency'],
    auth: true,
    scope: 'connections:write',
    body: CreateIdempotencyKeyBody,
    data: IdempotencyKeyResult,
  },
]);
