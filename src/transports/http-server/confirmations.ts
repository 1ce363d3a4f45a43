/**
 * The waits of a node for other nodes to confirm they took in a change it made (see
 * `SharedSessions`): each wait ends when every node named has confirmed, or after its time,
 * whichever comes first. Never rejects: a node that does not answer only costs the wait.
 */
export class Confirmations {
  private readonly waits = new Map<number, { left: Set<string>; done: () => void }>();
  private counter = 0;

  /** Starts a wait for `nodes` (possibly none), at most `ms`; `key` is what they quote. */
  expect(nodes: readonly string[], ms: number): { key: number; confirmed: Promise<void> } {
    const key = this.counter++;
    const confirmed = new Promise<void>((resolve) => {
      const timer = setTimeout(() => done(), ms);
      const done = (): void => {
        clearTimeout(timer);
        this.waits.delete(key);
        resolve();
      };
      if (nodes.length > 0) this.waits.set(key, { left: new Set(nodes), done });
    });
    return { key, confirmed };
  }

  /** Node `node` confirmed wait `key`. */
  confirm(key: number, node: string): void {
    const wait = this.waits.get(key);
    if (wait && wait.left.delete(node) && wait.left.size === 0) wait.done();
  }

  /** Ends every wait now (the node is closing). */
  close(): void {
    for (const wait of [...this.waits.values()]) wait.done();
  }
}
