/** Number formatting for the console and the Markdown table. */
export const rps = (n: number) => `${Math.round(n).toLocaleString('en-US')} req/s`;
export const ms = (n: number) =>
  n >= 100 ? `${n.toFixed(0)} ms` : n >= 10 ? `${n.toFixed(1)} ms` : `${n.toFixed(2)} ms`;
export const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MB`;
export const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`;
export const ratio = (n: number) => `${n.toFixed(2)}x`;
export const count = (n: number) => Math.round(n).toLocaleString('en-US');
