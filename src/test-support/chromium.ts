/**
 * Debian's Chromium for the browser tests (browsers cannot be downloaded here), and the
 * flags that keep it quiet on a machine with no network: without the background-networking
 * ones it keeps trying hosts it cannot reach. Containers often give /dev/shm only 64 MB,
 * which two browsers at once can exhaust (pages then stall): shared memory goes to /tmp.
 */
export const CHROMIUM = process.env.MCPKIT_CHROMIUM ?? '/usr/bin/chromium';

export const CHROMIUM_ARGS: readonly string[] = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--disable-dev-shm-usage',
];
