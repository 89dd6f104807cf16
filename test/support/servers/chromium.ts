/**
 * Debian's Chromium as the benchmarks and browser tests drive it (through playwright-core, never a
 * browser download): headless, offline (no background networking, component updates or sync, which
 * would keep reaching for the network), and with exact heap figures from performance.memory.
 */
export const chromiumPath = '/usr/bin/chromium';

export const chromiumArgs: readonly string[] = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--enable-precise-memory-info',
];
