// The runtime benchmark's tables (bench/runtimes.mjs), printed by it and by `npm run bench`.

const ERAS = ['legacy', 'modern'];

/**
 * Two tables: calls/s per runtime, era and number of clients, and the server's CPU per call
 * (µs); each figure with its ratio to Node 20's in the same run (above 1.00× is better in
 * both; the aim is at least 0.80×).
 */
export function runtimeTable({ runtimes: all, clients, load, seconds }) {
  const cols = [];
  for (const era of ERAS) for (const n of clients) cols.push(`${era}|${n}`);
  const head = `| runtime | version | ${cols.map((c) => `${c.replace('|', ', ')} client${c.endsWith('|1') ? '' : 's'}`).join(' | ')} |`;
  const rule = `|---|---|${cols.map(() => '---:').join('|')}|`;
  const table = (values, ratios, fmt) =>
    Object.values(all).map((r) => {
      const cells = cols.map((c) => {
        const v = r[values]?.[c];
        const ratio = r[ratios]?.[c];
        return v === undefined ? '' : `${fmt(v)}${ratio === undefined ? '' : ` (${ratio.toFixed(2)}×)`}`;
      });
      return `| ${r.label} | ${r.error ? `not run: ${r.error}` : r.version} | ${cells.join(' | ')} |`;
    });
  return [
    `HTTP tools/call on each runtime: the runtime suite's fixture server, a raw keep-alive client, medians of interleaved rounds; × is the ratio to Node 20 in this run (above 1.00× is better; aim ≥ 0.80×). Load ${load[0].toFixed(1)} → ${load[1].toFixed(1)}, ${seconds.toFixed(0)} s.`,
    '',
    'Calls/s:',
    '',
    head,
    rule,
    ...table('rates', 'ratios', (x) => Math.round(x).toLocaleString('en-US')),
    '',
    'Server CPU per call (µs, all threads, from /proc; steadier than calls/s on a loaded machine):',
    '',
    head,
    rule,
    ...table('cpu', 'cpuRatios', (x) => x.toFixed(0)),
    ...floorTable(all, cols, head, rule),
  ];
}

/**
 * The floor (the runtime's HTTP server answering both eras' messages with no MCP machinery):
 * its CPU per call with the ratio to Node 20's floor, then mcpkit's CPU per call over it on
 * the same runtime. A runtime whose floor is itself below 0.80× Node 20's is limited by the
 * runtime; mcpkit ÷ floor above Node 20's is mcpkit's cost on that runtime.
 */
function floorTable(all, cols, head, rule) {
  const rows = Object.values(all).filter((r) => r.floor?.cpu);
  if (rows.length === 0) return [];
  const cell = (r, c) => {
    const floor = r.floor.cpu[c];
    if (floor === undefined) return '';
    const ratio = r.floor.cpuRatios?.[c];
    const own = r.cpu?.[c];
    return `${floor.toFixed(0)}${ratio === undefined ? '' : ` (${ratio.toFixed(2)}×)`}${own === undefined ? '' : ` · ${(own / floor).toFixed(2)}`}`;
  };
  return [
    '',
    "The floor: each runtime's HTTP server answering the same messages with no MCP machinery. Its CPU per call (µs, × is Node 20's floor over it), then · mcpkit's CPU per call over the floor's on that runtime:",
    '',
    head,
    rule,
    ...rows.map((r) => `| ${r.label} | ${r.version} | ${cols.map((c) => cell(r, c)).join(' | ')} |`),
  ];
}
