import { get, post } from './api.js';
import { verifyAuditRange } from './audit-verify.js';
import { act, h, kv, render, time } from './dom.js';

// Connections, status stream and audit log.

/** Connections of a tenant, their state history from the audit chain, and the control-plane transitions. */
export async function showConnections(container, tenant) {
  const refresh = () => showConnections(container, tenant);
  const list = await get(`/connections?tenant=${encodeURIComponent(tenant)}`);
  const transition = (id, state) => {
    const b = h(
      'button',
      { type: 'button', dataset: { state } },
      state === 'active' ? 'resume' : state === 'paused' ? 'pause' : 'revoke',
    );
    b.addEventListener('click', () =>
      act(b, () => post(`/connections/${encodeURIComponent(id)}/state`, { state }), refresh),
    );
    return b;
  };
  render(
    container,
    list.length
      ? list.map(({ connection: c, history }) =>
          h(
            'article',
            { class: 'connection' },
            h('h3', {}, `${c.id} `, h('span', { class: `badge ${c.state}` }, c.state)),
            kv({
              connector: c.connectorId,
              environment: c.environment,
              scope: c.scopeLabel,
              created: time(c.createdAt),
              next: c.nextStep,
            }),
            h(
              'div',
              { class: 'actions' },
              ['paused', 'active', 'revoked'].map((s) => transition(c.id, s)),
            ),
            h(
              'ol',
              { class: 'history' },
              history.map((e) => h('li', {}, `${time(e.at)} ${e.action} by ${e.actor} (${e.requestId})`)),
            ),
          ),
        )
      : h('p', { class: 'empty' }, `Tenant ${tenant} has no connections.`),
  );
}

/** Every feed of the status stream with its numbers and newest messages. */
export async function showStream(container) {
  const feeds = await get('/stream');
  render(
    container,
    feeds.map((f) =>
      h(
        'article',
        { class: 'feed' },
        h('h3', {}, f.feed),
        kv({ 'last id': f.lastId, 'oldest retained': f.oldestRetained, 'open streams': f.subscribers }),
        f.recent.length
          ? h(
              'table',
              { class: 'grid' },
              f.recent.map((m) =>
                h(
                  'tr',
                  {},
                  h('td', {}, m.id),
                  h('td', {}, time(m.at)),
                  h('td', {}, m.event),
                  h('td', { class: 'data' }, JSON.stringify(m.data)),
                ),
              ),
            )
          : h('p', { class: 'empty' }, 'No messages.'),
      ),
    ),
  );
}

/** The tenant's audit log; the chain is recomputed here in the browser with Web Crypto. */
export async function showAudit(container, tenant) {
  const { entries, proof } = await get(`/audit?tenant=${encodeURIComponent(tenant)}`);
  const result = await verifyAuditRange(entries, proof);
  render(
    container,
    h(
      'p',
      { class: `verdict ${result.ok ? 'ok' : 'bad'}`, id: 'audit-verdict' },
      result.ok
        ? `Chain verified in this browser: ${result.count} entries, seq ${proof.fromSeq}..${proof.toSeq}, head ${proof.headHash.slice(0, 16)}…`
        : `Chain does NOT verify: ${result.message}`,
    ),
    h(
      'table',
      { class: 'grid' },
      h(
        'thead',
        {},
        h(
          'tr',
          {},
          ['seq', 'at', 'action', 'target', 'actor', 'requestId', 'hash'].map((c) => h('th', {}, c)),
        ),
      ),
      h(
        'tbody',
        {},
        entries.map((e) =>
          h(
            'tr',
            {},
            h('td', {}, e.seq),
            h('td', {}, time(e.at)),
            h('td', {}, e.action),
            h('td', {}, e.target),
            h('td', {}, e.actor),
            h('td', {}, e.requestId),
            h('td', { class: 'sig' }, `${e.hash.slice(0, 16)}…`),
          ),
        ),
      ),
    ),
  );
}
