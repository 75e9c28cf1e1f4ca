import { catalogHandlers } from './catalog.ts';
import { connectionHandlers } from './connections.ts';
import { auditHandlers } from './audit.ts';
import { streamHandlers } from './stream.ts';
import { webhookHandlers } from './webhooks.ts';
import { discoveryHandlers } from './discovery.ts';
import type { HandlerMap } from './types.ts';

/** Every handler by route id. */
export const HANDLERS: HandlerMap = {
  ...discoveryHandlers,
  ...catalogHandlers,
  ...connectionHandlers,
  ...streamHandlers,
  ...webhookHandlers,
  ...auditHandlers,
};
