/**
 * Tool pinning and remembered consents. A pin is the SHA-256 of the canonical JSON of a
 * tool definition the user (or the policy) approved; a server that later changes the
 * definition no longer matches its pin, and the tool needs approval again.
 */
import type { Tool } from '../../protocol/types/index.js';

/** JSON with object keys sorted, so equal definitions hash alike whatever the key order. */
export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (typeof value === 'object' && value !== null) {
    const keys = Object.keys(value).sort();
    const parts: string[] = [];
    for (const k of keys) {
      const v = (value as Record<string, unknown>)[k];
      if (v !== undefined) parts.push(`${JSON.stringify(k)}:${canonicalJson(v)}`);
    }
    return `{${parts.join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

/** SHA-256 of a string as lowercase hex (Web Crypto: Node, browsers, workers). */
export async function sha256(text: string): Promise<string> {
  const digest = await crypto.subtle.digest('SHA-256', new TextEncoder().encode(text));
  return Array.from(new Uint8Array(digest), (b) => b.toString(16).padStart(2, '0')).join('');
}

/**
 * The hash a tool is pinned by. Everything the model reads or that changes what a call
 * does is covered: name, title, description, schemas, annotations, execution. `_meta`
 * and icons are left out (they change nothing the model sees).
 */
export function toolHash(tool: Tool): Promise<string> {
  const { name, title, description, inputSchema, outputSchema, annotations, execution } = tool;
  return sha256(
    canonicalJson({ name, title, description, inputSchema, outputSchema, annotations, execution }),
  );
}

/**
 * Where approvals are remembered: tool pins by (server, tool) and consents by key. The
 * in-memory store forgets on exit; pass a persistent one (see `JsonFileStore`) to
 * remember across runs.
 */
export interface ApprovalStore {
  /** The pinned hash of a tool, if any. */
  getPin(server: string, tool: string): string | undefined;
  setPin(server: string, tool: string, hash: string): void;
  /** Whether consent was given for this key (e.g. an exact command line). */
  hasConsent(key: string): boolean;
  addConsent(key: string): void;
}

/** Keeps pins and consents in memory. */
export class MemoryApprovalStore implements ApprovalStore {
  protected pins: Record<string, string> = {};
  protected consents: Record<string, true> = {};

  getPin(server: string, tool: string): string | undefined {
    const v = this.pins[pinKey(server, tool)];
    return typeof v === 'string' ? v : undefined;
  }
  setPin(server: string, tool: string, hash: string): void {
    this.pins[pinKey(server, tool)] = hash;
    this.changed();
  }
  hasConsent(key: string): boolean {
    return this.consents[key] === true;
  }
  addConsent(key: string): void {
    this.consents[key] = true;
    this.changed();
  }
  /** Called after every change (persistent stores save here). */
  protected changed(): void {}
}

/** An unambiguous key for a (server, tool) pair. */
export function pinKey(server: string, tool: string): string {
  return JSON.stringify([server, tool]);
}
