import { get, post } from './api.js';
import { act, h, render, time } from './dom.js';

// Client verdicts: every client rule with its status and evidence, and the receiver check.

const MARK = { pass: '✓ pass', fail: '✗ fail', 'not-observed': '– not observed' };

function evidenceList(rule) {
  if (!rule.evidence.length) return h('p', { class: 'empty' }, rule.summary);
  return h(
    'ul',
    {},
    rule.evidence.map((e) =>
      h(
        'li',
        {},
        `${e.client} @ ${e.tenant}, ${time(e.at)}: ${e.note}`,
        e.waitsMs ? ` (waits ${e.waitsMs.join(', ')} ms)` : '',
        e.requestIds.length ? h('code', {}, ` ${e.requestIds.join(' ')}`) : '',
      ),
    ),
  );
}

function receiverForm(container) {
  const input = h('input', { name: 'webhookId', placeholder: 'webhook id (wh_…)' });
  const button = h('button', { type: 'submit' }, 'Run receiver check');
  return h(
    'form',
    {
      class: 'inline',
      onsubmit: (e) => {
        e.preventDefault();
        act(
          button,
          () => post('/receiver-check', { webhookId: input.value.trim() }),
          () => showClientVerdicts(container),
        );
      },
    },
    input,
    button,
  );
}

/** The client report: summary, one row per rule, the evidence of each. */
export async function showClientVerdicts(container) {
  const report = await get('/client-report');
  const s = report.summary;
  render(
    container,
    h(
      'article',
      {},
      h('h3', {}, 'Client verdicts'),
      h(
        'p',
        {},
        `${s.passed} passed, ${s.mustFailed} MUST failed, ${s.shouldFailed} SHOULD failed, ${s.notObserved} not observed — `,
        `${report.observed.calls} calls of ${report.observed.clients.join(', ') || 'no client'} since ${time(report.since)}`,
      ),
      h(
        'table',
        { class: 'verdicts' },
        h('tr', {}, h('th', {}, 'rule'), h('th', {}, 'severity'), h('th', {}, 'status'), h('th', {}, 'evidence')),
        report.rules.map((r) =>
          h(
            'tr',
            { class: `verdict-${r.status}` },
            h('td', { title: `${r.section}: "${r.sentence}"` }, h('strong', {}, r.id), h('br'), r.title),
            h('td', {}, r.severity),
            h('td', {}, MARK[r.status]),
            h('td', {}, evidenceList(r)),
          ),
        ),
      ),
    ),
    h('article', {}, h('h3', {}, 'Webhook receiver check'), receiverForm(container)),
  );
}
