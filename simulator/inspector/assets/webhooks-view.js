import { get, post } from './api.js';
import { h, kv, pre, render, statusClass, time } from './dom.js';

// Webhook receivers and their delivery logs: every attempt with status, error, latency and the signature header it carried.

function attempt(a) {
  return h(
    'tr',
    { class: 'attempt' },
    h('td', {}, `#${a.n} (seq ${a.sequence})`),
    h('td', {}, time(a.at)),
    h('td', {}, a.status ? h('span', { class: `status ${statusClass(a.status)}` }, a.status) : '-'),
    h('td', { class: 'error' }, a.error ?? ''),
    h('td', { class: 'num' }, `${a.durationMs} ms`),
    h('td', { class: 'sig' }, a.signature ? `${a.signatureHeader}: ${a.signature}` : a.signatureHeader),
  );
}

function delivery(d, refresh) {
  const button = h('button', { type: 'button', class: 'redeliver', dataset: { delivery: d.id } }, 'Redeliver');
  button.addEventListener('click', async () => {
    button.disabled = true;
    button.textContent = 'Redelivering…';
    try {
      await post(`/deliveries/${encodeURIComponent(d.id)}/redeliver`);
    } catch (err) {
      button.textContent = err.message;
    }
    setTimeout(refresh, 300);
  });
  return h(
    'section',
    { class: `delivery ${d.status}`, dataset: { delivery: d.id } },
    h('h4', {}, `${d.eventType} `, h('span', { class: `badge ${d.status}` }, d.status), ` ${d.id}`),
    kv({
      event: d.eventId,
      url: d.url,
      created: time(d.createdAt),
      attempts: d.attempts.length,
      error: d.error ?? '-',
    }),
    button,
    h(
      'table',
      { class: 'grid attempts' },
      h(
        'thead',
        {},
        h(
          'tr',
          {},
          ['attempt', 'at', 'status', 'error', 'latency', 'signature header'].map((c) => h('th', {}, c)),
        ),
      ),
      h('tbody', {}, d.attempts.map(attempt)),
    ),
    h('details', {}, h('summary', {}, 'Body sent'), pre(d.body)),
  );
}

/** Shows the tenant's receivers with their deliveries; `refresh` reloads it (live updates call it too). */
export async function show(container, tenant) {
  const refresh = () => show(container, tenant);
  const receivers = await get(`/webhooks?tenant=${encodeURIComponent(tenant)}`);
  render(
    container,
    receivers.length
      ? receivers.map(({ receiver, deliveries }) =>
          h(
            'article',
            { class: 'receiver' },
            h('h3', {}, `${receiver.url}`),
            kv({ id: receiver.id, events: receiver.events.join(', '), created: time(receiver.createdAt) }),
            deliveries.length
              ? deliveries.map((d) => delivery(d, refresh))
              : h('p', { class: 'empty' }, 'No deliveries yet.'),
          ),
        )
      : h(
          'p',
          { class: 'empty' },
          `Tenant ${tenant} has no webhook receivers. Register one with POST /api/public/v1/webhooks.`,
        ),
  );
}
