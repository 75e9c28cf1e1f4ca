import { get, LIVE_URL } from './api.js';
import { showClientVerdicts } from './client-view.js';
import { showControls } from './controls-view.js';
import { render } from './dom.js';
import * as journal from './journal-view.js';
import { showAudit, showConnections, showStream } from './state-views.js';
import * as webhooks from './webhooks-view.js';

// The inspector's shell: tabs, the tenant picker, and the live stream that keeps the open view current.

const main = document.getElementById('view');
const tenantSelect = document.getElementById('tenant');
let overview;
let current = location.hash.slice(1) || 'journal';
let reloadTimer;

let shown = 0;

const VIEWS = {
  journal: (box) => journal.show(box, overview),
  webhooks: (box) => webhooks.show(box, tenantSelect.value),
  connections: (box) => showConnections(box, tenantSelect.value),
  stream: (box) => showStream(box),
  audit: (box) => showAudit(box, tenantSelect.value),
  controls: (box) => showControls(box, overview, refreshOverview),
  clients: (box) => showClientVerdicts(box),
};

async function refreshOverview() {
  overview = await get('/overview');
  document.getElementById('clock').textContent = `clock ${overview.clock.now.replace('T', ' ').slice(0, 19)}Z`;
  if (current === 'controls') await showView('controls');
}

async function showView(name) {
  const mine = ++shown;
  current = VIEWS[name] ? name : 'journal';
  for (const a of document.querySelectorAll('nav a')) a.classList.toggle('active', a.dataset.view === current);
  document.getElementById('message').textContent = '';
  // Each view is drawn into a box of its own and shown only if no later view was asked for meanwhile: a slow
  // answer for the view before (a reload after a change) no longer replaces the one the person just opened.
  const box = document.createElement('div');
  try {
    await VIEWS[current](box);
  } catch (err) {
    if (mine === shown) document.getElementById('message').textContent = err.message;
  }
  if (mine === shown) main.replaceChildren(box);
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
