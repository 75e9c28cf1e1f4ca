import { del, post } from './api.js';
import { act, alertLine, h, kv, pre, render, time } from './dom.js';

// Clock, faults, rate limit and sample events, each with its form.

function form(fields, label, submit) {
  const inputs = fields.map(([name, placeholder, value = '']) => h('input', { name, placeholder, value }));
  const button = h('button', { type: 'submit' }, label);
  return h(
    'form',
    {
      class: 'inline',
      onsubmit: (e) => {
        e.preventDefault();
        const values = Object.fromEntries(inputs.map((i) => [i.name, i.value.trim()]));
        act(
          button,
          () => submit(values),
          () => undefined,
        );
      },
    },
    inputs,
    button,
  );
}

/** Clock, faults and rate limit, with their controls. */
export async function showControls(container, overview, refresh) {
  // Forms go through act(), which reports failures; plain buttons report theirs here.
  const then = (fn) => async (v) => {
    try {
      await fn(v);
    } catch (err) {
      alertLine(err.message);
    }
    await refresh();
  };
  const rl = overview.rateLimit;
  render(
    container,
    h(
      'article',
      {},
      h('h3', {}, 'Clock'),
      kv({ now: time(overview.clock.now), offset: `${overview.clock.offsetMs / 1000} s` }),
      form(
        [['seconds', 'seconds', '3600']],
        'Advance clock',
        then((v) => post('/clock/advance', { seconds: Number(v.seconds) })),
      ),
    ),
    h(
      'article',
      {},
      h('h3', {}, 'Faults'),
      overview.faults.length
        ? pre(JSON.stringify(overview.faults, null, 2))
        : h('p', { class: 'empty' }, 'No faults armed.'),
      form(
        [
          [
            'kind',
            'internal | rate_limited | latency | unavailable | commit_then_fail | stream_cut | stream_stall | stream_restart | cursor_expired',
            'internal',
          ],
          ['route', 'route (optional)'],
          ['tenant', 'tenant (optional)'],
          ['failWith', 'commit_then_fail: internal | unavailable | drop | timeout'],
          ['count', 'count', '1'],
        ],
        'Arm fault',
        then((v) =>
          post('/faults', {
            kind: v.kind,
            count: Number(v.count) || 1,
            ...(v.route ? { route: v.route } : {}),
            ...(v.tenant ? { tenant: v.tenant } : {}),
            ...(v.failWith ? { failWith: v.failWith } : {}),
          }),
        ),
      ),
      h('button', { type: 'button', onclick: then(() => del('/faults')) }, 'Clear faults'),
    ),
    h(
      'article',
      {},
      h('h3', {}, 'Rate limit'),
      kv({ limit: rl ? `${rl.limit} calls per ${rl.windowSeconds} s` : 'off' }),
      form(
        [
          ['limit', 'calls', rl ? rl.limit : 1200],
          ['windowSeconds', 'seconds', rl ? rl.windowSeconds : 60],
        ],
        'Set',
        then((v) => post('/rate-limit', { limit: Number(v.limit), windowSeconds: Number(v.windowSeconds) })),
      ),
      h('button', { type: 'button', onclick: then(() => post('/rate-limit', { off: true })) }, 'Switch off'),
    ),
    h(
      'article',
      {},
      h('h3', {}, 'Sample events'),
      form(
        [['event', 'order.created | order.paid', 'order.created']],
        'Trigger for tenant',
        then((v) => post('/trigger', { event: v.event, tenant: document.getElementById('tenant').value })),
      ),
    ),
    h(
      'article',
      {},
      h('h3', {}, 'Counts'),
      kv(overview.counts),
      h('button', { type: 'button', onclick: then(() => post('/reset')) }, 'Reset sandbox (and journal)'),
    ),
  );
}
