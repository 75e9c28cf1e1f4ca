// bin/ncs.mjs exports nothing: it runs the ncs command when loaded.
export {};
