// CPU time of another process, for the benchmarks that charge a server or proxy child its own
// cost. Linux only (/proc).
import { readFileSync, readdirSync } from 'node:fs';

/** CPU µs the process used so far: the sum of its threads' run time in /proc (ns precision). */
export function cpuOf(pid) {
  let ns = 0;
  for (const tid of readdirSync(`/proc/${pid}/task`)) {
    try {
      ns += Number(readFileSync(`/proc/${pid}/task/${tid}/schedstat`, 'utf8').split(' ')[0]);
    } catch {
      // The thread ended between the listing and the read.
    }
  }
  return ns / 1000;
}
