import { auditHandlers } from '../handlers/audit.ts';
import { catalogHandlers } from '../handlers/catalog.ts';
import { connectionHandlers } from '../handlers/connections.ts';
import { discoveryHandlers } from '../handlers/discovery.ts';
import { streamClosedMessage, streamHandlers } from '../handlers/stream.ts';
import { bindHandlers, type HandlerDeps, type HandlerMap } from '../handlers/types.ts';
import { webhookHandlers } from '../handlers/webhooks.ts';
import { createAccessWatch } from '../services/access-watch.ts';
import type { SandboxState } from './sandbox-state.ts';

/** What handlers need besides the stores: documents, stream gate and pacing, webhook settings. */
export type HandlerServices = Pick<
  HandlerDeps,
  'documents' | 'streams' | 'streamOptions' | 'signatureHeader' | 'webhookHosts'
>;

/**
 * Every public handler by route id, each group bound to only the stores and services it declares.
 * @example const handlers = wireHandlers(state, services); await handlers.listProviders!(ctx);
 */
export function wireHandlers(s: SandboxState, x: HandlerServices): HandlerMap {
  const access = createAccessWatch(s, streamClosedMessage);
  return {
    ...bindHandlers(discoveryHandlers, { documents: x.documents, clients: s.clients, tenants: s.tenants }),
    ...bindHandlers(catalogHandlers, { catalog: s.catalog, connections: s.connections }),
    ...bindHandlers(connectionHandlers, {
      connections: s.connections,
      catalog: s.catalog,
      idempotency: s.idempotency,
    }),
    ...bindHandlers(streamHandlers, {
      feeds: s.feeds,
      streams: x.streams,
      streamOptions: x.streamOptions,
      accessStreams: ((token) => access.group(token)) satisfies HandlerDeps['accessStreams'],
    }),
    ...bindHandlers(webhookHandlers, {
      receivers: s.receivers,
      events: s.events,
      dispatcher: s.dispatcher,
      signatureHeader: x.signatureHeader,
      webhookHosts: x.webhookHosts,
    }),
    ...bindHandlers(auditHandlers, { audit: s.audit }),
  };
}
