import type { JsonRpcMessage } from '../jsonrpc/index.js';

/** Collects the answers to one JSON-RPC batch and sends them together, once all are in. */
export class BatchCollector {
  private readonly out: JsonRpcMessage[] = [];
  private waiting = 0;
  private sealed = false;

  constructor(private readonly send: (messages: JsonRpcMessage[]) => void) {}

  /** One more answer is on its way. */
  expect(): void {
    this.waiting++;
  }

  add(message: unknown): void {
    this.out.push(message as JsonRpcMessage);
    this.skip();
  }

  /** One expected answer will never come (its request was cancelled). */
  skip(): void {
    this.waiting--;
    this.flush();
  }

  /** Every item of the batch has been dispatched. */
  seal(): void {
    this.sealed = true;
    this.flush();
  }

  private flush(): void {
    if (this.sealed && this.waiting === 0 && this.out.length > 0) this.send(this.out.splice(0));
  }
}
