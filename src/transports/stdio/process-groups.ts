/**
 * Live child process groups, killed when this process exits so no server outlives its
 * client, even when the client dies without calling close().
 *
 * SIGTERM and SIGINT: a process with no handler of its own would die without running
 * 'exit' hooks, leaving its servers (in their own process groups) behind. While groups are
 * live, a handler kills them and then lets the signal take its default course; when the
 * program has a handler of its own, that handler decides and ours stays out of the way
 * (the groups are still killed on 'exit').
 *
 * SIGKILL cannot be caught: the servers survive their client, see their stdin end, and
 * must exit then (the stdin-EOF contract; StdioServerTransport honours it).
 */
const live = new Set<number>();
let hooked = false;
const SIGNALS = ['SIGTERM', 'SIGINT'] as const;

function killAllNow(): void {
  for (const pgid of live) {
    try {
      process.kill(-pgid, 'SIGKILL');
    } catch {
      // Already gone.
    }
  }
  live.clear();
}

function onSignal(signal: NodeJS.Signals): void {
  // The program has its own handler: it decides whether and how to exit.
  if (process.listenerCount(signal) > 1) return;
  killAllNow();
  for (const s of SIGNALS) process.off(s, onSignal);
  hooked = false;
  process.off('exit', killAllNow);
  // No listener left: the signal's default action (termination) applies again.
  process.kill(process.pid, signal);
}

export function trackGroup(pgid: number): void {
  live.add(pgid);
  if (!hooked) {
    hooked = true;
    process.once('exit', killAllNow);
    // First in line, so the program's own handlers are still counted when ours runs: a
    // `process.once` handler removes itself before it is called.
    for (const s of SIGNALS) process.prependListener(s, onSignal);
  }
}

export function untrackGroup(pgid: number): void {
  live.delete(pgid);
  if (live.size === 0 && hooked) {
    // Nothing to protect: give the signals their default behaviour back.
    hooked = false;
    process.off('exit', killAllNow);
    for (const s of SIGNALS) process.off(s, onSignal);
  }
}

/** Sends a signal to a whole process group; false when no member is left. */
export function signalGroup(pgid: number, signal: NodeJS.Signals | 0): boolean {
  try {
    process.kill(-pgid, signal);
    return true;
  } catch {
    return false;
  }
}
