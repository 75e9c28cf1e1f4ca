/** Where the inspector lives on the control plane. */
export const INSPECTOR_PREFIX = '/_sandbox/inspector';
