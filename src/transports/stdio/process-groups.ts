/**
 * Live child process groups, killed when this process exits so no server outlives its
 * client, even when the client dies without calling close().
 */
const live = new Set<number>();
let hooked = false;

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

export function trackGroup(pgid: number): void {
  live.add(pgid);
  if (!hooked) {
    hooked = true;
    process.once('exit', killAllNow);
  }
}

export function untrackGroup(pgid: number): void {
  live.delete(pgid);
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
