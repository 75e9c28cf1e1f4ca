import { get } from './api.js';
import { h, kv, pre, render, statusClass, time } from './dom.js';

// The request journal: newest first, filtered by tenant, status and path, updated live from the stream.

const filters = { tenant: '', status: '', path: '' };
let rows = [];
let selected;

function matches(s) {
  if (filters.tenant && s.tenant !== filters.tenant) return false;
  if (filters.path && !s.path.includes(filters.path)) return false;
  if (filters.status) {
    const cls = /^([1-5])xx$/i.exec(filters.status)?.[1];
    if (cls ? Math.floor(s.status / 100) !== Number(cls) : String(s.status) !== filters.status) return false;
  }
  return true;
}

function row(s) {
  return h(
    'tr',
    { class: `row ${s.seq === selected ? 'selected' : ''}`, dataset: { seq: s.seq }, onclick: () => open(s.seq) },
    h('td', {}, time(s.at)),
    h('td', {}, s.method),
    h('td', { class: 'path' }, s.path),
    h('td', {}, h('span', { class: `status ${statusClass(s.status)}` }, s.status)),
    h('td', {}, s.requestId),
    h('td', {}, s.tenant ?? ''),
    h('td', {}, s.clientId ?? ''),
    h('td', { class: 'num' }, `${s.durationMs} ms`),
  );
}

let stats;
// What the journal let go: bodies cut past 64 KiB, bodies dropped for the byte budget, calls skipped under load.
function budgetNote() {
  if (!stats) return '';
  const parts = [];
  if (stats.bodiesTruncated) parts.push(`${stats.bodiesTruncated} bodies cut at ${stats.bodyBytes / 1024} KiB`);
  if (stats.bodiesDropped)
    parts.push(`${stats.bodiesDropped} bodies dropped (budget ${Math.round(stats.maxBytes / 1048576)} MiB)`);
  if (stats.skipped) parts.push(`${stats.skipped} calls skipped under load`);
  return parts.length ? ` · ${parts.join(' · ')}` : '';
}

function table() {
  const body = document.getElementById('journal-rows');
  if (!body) return;
  const shown = rows.filter(matches);
  render(body, shown.length ? shown.map(row) : h('tr', {}, h('td', { colspan: 8, class: 'empty' }, 'No calls yet.')));
  document.getElementById('journal-count').textContent = `${shown.length} of ${rows.length} calls${budgetNote()}`;
}

async function open(seq) {
  selected = seq;
  table();
  const panel = document.getElementById('journal-detail');
  const d = await get(`/journal/${seq}`);
  const copy = h('button', { type: 'button', id: 'copy-curl' }, 'Copy as curl');
  copy.addEventListener('click', async () => {
    try {
      await navigator.clipboard.writeText(d.curl);
      copy.textContent = 'Copied';
    } catch {
      // No clipboard permission (headless, plain http): select the text for a manual copy instead.
      getSelection().selectAllChildren(document.getElementById('curl-text'));
      copy.textContent = 'Selected: press Ctrl+C';
    }
  });
  render(
    panel,
    h('h3', {}, `${d.method} ${d.path}${d.query ? `?${d.query}` : ''} → ${d.status}`),
    kv({
      requestId: d.requestId,
      at: d.at,
      tenant: d.tenant ?? '-',
      client: d.clientId ?? '-',
      duration: `${d.durationMs} ms`,
    }),
    h('div', { class: 'curl' }, copy, pre(d.curl, 'code curl-text')),
    h('h4', {}, 'Request headers'),
    kv(d.requestHeaders),
    h('h4', {}, 'Request body'),
    pre(d.requestBody),
    h('h4', {}, 'Response headers'),
    kv(d.responseHeaders),
    h('h4', {}, 'Response body'),
    pre(d.responseBody),
  );
  panel.querySelector('.curl-text').id = 'curl-text';
}

function input(name, placeholder) {
  return h('input', {
    name,
    placeholder,
    value: filters[name],
    oninput: (e) => {
      filters[name] = e.target.value.trim();
      table();
    },
  });
}

/** Builds the view and loads the journal. */
export async function show(container, overview) {
  stats = overview.journal;
  const tenant = h(
    'select',
    {
      name: 'tenant',
      onchange: (e) => {
        filters.tenant = e.target.value;
        table();
      },
    },
    h('option', { value: '' }, 'all tenants'),
    overview.tenants.map((t) => h('option', { value: t.id, selected: t.id === filters.tenant }, t.id)),
  );
  render(
    container,
    h(
      'div',
      { class: 'filters' },
      tenant,
      input('status', 'status (404, 4xx)'),
      input('path', 'path contains'),
      h('span', { id: 'journal-count' }),
    ),
    h(
      'div',
      { class: 'split' },
      h(
        'div',
        { class: 'scroll' },
        h(
          'table',
          { class: 'grid', id: 'journal' },
          h(
            'thead',
            {},
            h(
              'tr',
              {},
              ['time', 'method', 'path', 'status', 'requestId', 'tenant', 'client', 'duration'].map((c) =>
                h('th', {}, c),
              ),
            ),
          ),
          h('tbody', { id: 'journal-rows' }),
        ),
      ),
      h(
        'section',
        { id: 'journal-detail', class: 'detail' },
        h('p', { class: 'empty' }, 'Select a call to see its headers and bodies (secrets redacted).'),
      ),
    ),
  );
  rows = await get('/journal?limit=500');
  table();
}

/** A call arrived on the live stream. */
export function onJournal(summary) {
  rows.unshift(summary);
  if (rows.length > 500) rows.length = 500;
  table();
}
