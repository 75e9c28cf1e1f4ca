import { get, LIVE_URL } from './api.js';
import { render } from './dom.js';
import * as journal from './journal-view.js';
import { showClientVerdicts } from './client-view.js';
import { showControls } from './controls-view.js';
import { showAudit, showConnections, showStream } from './state-views.js';
import * as webhooks from './webhooks-view.js';

// The inspector's shell: tabs, the tenant picker, and the live stream that keeps the open view current.

const main = document.getElementById('view');
const tenantSelect = document.getElementById('tenant');
let overview;
let current = location.hash.slice(1) || 'journal';
let reloadTimer;

const VIEWS = {
  journal: () => journal.show(main, overview),
  webhooks: () => webhooks.show(main, tenantSelect.value),
  connections: () => showConnections(main, tenantSelect.value),
  stream: () => showStream(main),
  audit: () => showAudit(main, tenantSelect.value),
  controls: () => showControls(main, overview, refreshOverview),
  clients: () => showClientVerdicts(main),
};

async function refreshOverview() {
  overview = await get('/overview');
  document.getElementById('clock').textContent = `clock ${overview.clock.now.replace('T', ' ').slice(0, 19)}Z`;
  if (current === 'controls') await VIEWS.controls();
}

async function showView(name) {
  current = VIEWS[name] ? name : 'journal';
  for (const a of document.querySelectorAll('nav a')) a.classList.toggle('active', a.dataset.view === current);
  document.getElementById('message').textContent = '';
  try {
    await VIEWS[current]();
  } catch (err) {
    document.getElementById('message').textContent = err.message;
  }
}

// Several events in a burst reload the open view once.
function reloadSoon() {
  if (current === 'journal') return;
  clearTimeout(reloadTimer);
  reloadTimer = setTimeout(() => showView(current), 150);
}

function connect() {
  const live = new EventSource(LIVE_URL);
  const dot = document.getElementById('live');
  live.addEventListener('open', () => (dot.className = 'on'));
  live.addEventListener('error', () => (dot.className = 'off'));
  live.addEventListener('journal', (e) => {
    if (current === 'journal') journal.onJournal(JSON.parse(e.data));
  });
  live.addEventListener('change', reloadSoon);
  live.addEventListener('tick', (e) => {
    const tick = JSON.parse(e.data);
    document.getElementById('clock').textContent = `clock ${tick.now.replace('T', ' ').slice(0, 19)}Z`;
    if (tick.changed || tick.pendingDeliveries > 0) reloadSoon();
  });
}

async function start() {
  overview = await get('/overview');
  render(
    tenantSelect,
    overview.tenants.map((t) => new Option(`${t.id} (${t.name})`, t.id)),
  );
  tenantSelect.addEventListener('change', () => showView(current));
  window.addEventListener('hashchange', () => showView(location.hash.slice(1)));
  await refreshOverview();
  await showView(current);
  connect();
}

start().catch((err) => {
  document.getElementById('message').textContent = err.message;
});
