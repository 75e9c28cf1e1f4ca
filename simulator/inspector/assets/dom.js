// Tiny DOM helpers: elements are built with textContent only, never innerHTML, so journaled
// bodies and headers can never run as markup.

/** h('td', { class: 'x', onclick }, 'text', child) */
export function h(tag, attrs = {}, ...children) {
  const el = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (v === undefined || v === null || v === false) continue;
    if (k.startsWith('on')) el.addEventListener(k.slice(2), v);
    else if (k === 'dataset') Object.assign(el.dataset, v);
    else el.setAttribute(k, v === true ? '' : String(v));
  }
  for (const c of children.flat())
    if (c !== undefined && c !== null && c !== false) el.append(c instanceof Node ? c : String(c));
  return el;
}

/** Replaces the children of a container. */
export function render(container, ...children) {
  container.replaceChildren(...children.flat().filter((c) => c !== undefined && c !== null && c !== false));
}

export function statusClass(status) {
  if (status >= 500) return 's5';
  if (status >= 400) return 's4';
  if (status >= 300) return 's3';
  return 's2';
}

export const time = (iso) => (iso ? iso.replace('T', ' ').replace(/\.\d+Z$/, 'Z') : '');

export function pre(text, cls = 'code') {
  return h('pre', { class: cls }, text || '(empty)');
}

export function kv(obj) {
  return h(
    'table',
    { class: 'kv' },
    Object.entries(obj).map(([k, v]) => h('tr', {}, h('th', {}, k), h('td', {}, String(v)))),
  );
}

/** Runs a button's action, shows a failure in the message line, then refreshes the view. */
export async function act(button, fn, refresh) {
  button.disabled = true;
  try {
    await fn();
  } catch (err) {
    alertLine(err.message);
  }
  await refresh();
}

export function alertLine(text) {
  const el = document.getElementById('message');
  if (el) el.textContent = text;
}
