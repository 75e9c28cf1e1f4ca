/** The report's whole stylesheet, inlined so the file needs nothing from the network; a print layout included. */
export const HTML_REPORT_CSS = `
:root { --fg: #1d2330; --muted: #6b7383; --line: #dde1e8; --ok: #1a7f37; --warn: #9a6700; --bad: #cf222e; }
* { box-sizing: border-box; }
body { margin: 0 auto; max-width: 72rem; padding: 1.5rem; font: 14px/1.5 system-ui, sans-serif; color: var(--fg); }
h1 { font-size: 1.4rem; margin: 0 0 0.25rem; }
h2 { font-size: 1.1rem; margin: 1.75rem 0 0.5rem; border-bottom: 1px solid var(--line); padding-bottom: 0.25rem; }
.meta { color: var(--muted); margin: 0 0 1rem; }
.verdict { display: inline-block; padding: 0.35rem 0.8rem; border-radius: 6px; font-weight: 700; }
.verdict.pass { background: #dafbe1; color: var(--ok); }
.verdict.fail { background: #ffebe9; color: var(--bad); }
.verdict.error { background: #fff8c5; color: var(--warn); }
.summary { display: flex; gap: 0.75rem; flex-wrap: wrap; margin: 1rem 0; }
.summary div { border: 1px solid var(--line); border-radius: 8px; padding: 0.4rem 0.9rem; min-width: 7rem; }
.summary b { display: block; font-size: 1.3rem; }
.check { border: 1px solid var(--line); border-left-width: 4px; border-radius: 6px; padding: 0.5rem 0.8rem; margin: 0.5rem 0; break-inside: avoid; }
.check.pass { border-left-color: var(--ok); }
.check.fail { border-left-color: var(--bad); }
.check.advisory { border-left-color: var(--warn); }
.check.skip { border-left-color: var(--muted); }
.check header { display: flex; gap: 0.6rem; align-items: baseline; flex-wrap: wrap; }
.name { font-family: ui-monospace, monospace; font-weight: 600; }
.tag { font-size: 0.75rem; font-weight: 700; padding: 0 0.4rem; border-radius: 4px; background: #eef1f5; }
.tag.fail { background: #ffebe9; color: var(--bad); }
.tag.pass { background: #dafbe1; color: var(--ok); }
.tag.advisory { background: #fff8c5; color: var(--warn); }
.muted { color: var(--muted); }
dl.failure { display: grid; grid-template-columns: 8rem 1fr; gap: 0.2rem 0.75rem; margin: 0.6rem 0 0; }
dl.failure dt { color: var(--muted); }
dl.failure dd { margin: 0; }
pre { margin: 0; white-space: pre-wrap; word-break: break-all; font: 12px/1.45 ui-monospace, monospace; background: #f3f4f6; padding: 0.35rem 0.5rem; border-radius: 4px; }
@media print {
  body { max-width: none; padding: 0; font-size: 11px; }
  h2 { break-after: avoid; }
  pre { background: none; border: 1px solid var(--line); }
}
`;
