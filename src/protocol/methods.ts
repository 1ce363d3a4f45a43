import type { ProtocolVersion } from './versions.js';

/** Which role sends a message. */
export type Sender = 'client' | 'server' | 'both';

/** A capability path: which side must declare it, and where (dot-separated). */
export interface CapabilityRef {
  side: 'client' | 'server';
  path: string;
  /** The first revision that gates this method on the capability. */
  since?: ProtocolVersion;
}

/**
 * Everything mcpkit needs to know about one method, in one place: its name, whether it is
 * a request or a notification, who sends it, the revisions that have it, and the
 * capability it needs.
 */
export interface MethodDescriptor {
  readonly method: string;
  readonly kind: 'request' | 'notification';
  readonly from: Sender;
  /** First revision that has the method. */
  readonly since: ProtocolVersion;
  /** First revision that no longer has it. */
  readonly removedIn?: ProtocolVersion;
  readonly capability?: CapabilityRef;
  /** The request may be answered with `input_required` (modern era). */
  readonly mrtr?: boolean;
  /** The result is cacheable (`ttlMs`, `cacheScope`) in the modern era. */
  readonly cacheable?: boolean;
}

const srv = (path: string, since?: ProtocolVersion): CapabilityRef =>
  since ? { side: 'server', path, since } : { side: 'server', path };
const cli = (path: string): CapabilityRef => ({ side: 'client', path });

const table: MethodDescriptor[] = [
  // Lifecycle and utilities
  { method: 'initialize', kind: 'request', from: 'client', since: '2024-11-05', removedIn: '2026-07-28' },
  {
    method: 'notifications/initialized',
    kind: 'notification',
    from: 'client',
    since: '2024-11-05',
    removedIn: '2026-07-28',
  },
  { method: 'ping', kind: 'request', from: 'both', since: '2024-11-05', removedIn: '2026-07-28' },
  { method: 'server/discover', kind: 'request', from: 'client', since: '2026-07-28', cacheable: true },
  { method: 'notifications/cancelled', kind: 'notification', from: 'both', since: '2024-11-05' },
  { method: 'notifications/progress', kind: 'notification', from: 'both', since: '2024-11-05' },
  // Tools
  {
    method: 'tools/list',
    kind: 'request',
    from: 'client',
    since: '2024-11-05',
    capability: srv('tools'),
    cacheable: true,
  },
  {
    method: 'tools/call',
    kind: 'request',
    from: 'client',
    since: '2024-11-05',
    capability: srv('tools'),
    mrtr: true,
  },
  {
    method: 'notifications/tools/list_changed',
    kind: 'notification',
    from: 'server',
    since: '2024-11-05',
    capability: srv('tools'),
  },
  // Resources
  {
    method: 'resources/list',
    kind: 'request',
    from: 'client',
    since: '2024-11-05',
    capability: srv('resources'),
    cacheable: true,
  },
  {
    method: 'resources/templates/list',
    kind: 'request',
    from: 'client',
    since: '2024-11-05',
    capability: srv('resources'),
    cacheable: true,
  },
  {
    method: 'resources/read',
    kind: 'request',
    from: 'client',
    since: '2024-11-05',
    capability: srv('resources'),
    mrtr: true,
    cacheable: true,
  },
  {
    method: 'resources/subscribe',
    kind: 'request',
    from: 'client',
    since: '2024-11-05',
    removedIn: '2026-07-28',
    capability: srv('resources.subscribe'),
  },
  {
    method: 'resources/unsubscribe',
    kind: 'request',
    from: 'client',
    since: '2024-11-05',
    removedIn: '2026-07-28',
    capability: srv('resources.subscribe'),
  },
  {
    method: 'notifications/resources/updated',
    kind: 'notification',
    from: 'server',
    since: '2024-11-05',
    capability: srv('resources'),
  },
  {
    method: 'notifications/resources/list_changed',
    kind: 'notification',
    from: 'server',
    since: '2024-11-05',
    capability: srv('resources'),
  },
  // Prompts
  {
    method: 'prompts/list',
    kind: 'request',
    from: 'client',
    since: '2024-11-05',
    capability: srv('prompts'),
    cacheable: true,
  },
  {
    method: 'prompts/get',
    kind: 'request',
    from: 'client',
    since: '2024-11-05',
    capability: srv('prompts'),
    mrtr: true,
  },
  {
    method: 'notifications/prompts/list_changed',
    kind: 'notification',
    from: 'server',
    since: '2024-11-05',
    capability: srv('prompts'),
  },
  // Completion and logging
  {
    method: 'completion/complete',
    kind: 'request',
    from: 'client',
    since: '2024-11-05',
    capability: srv('completions', '2025-03-26'),
  },
  {
    method: 'logging/setLevel',
    kind: 'request',
    from: 'client',
    since: '2024-11-05',
    removedIn: '2026-07-28',
    capability: srv('logging'),
  },
  {
    method: 'notifications/message',
    kind: 'notification',
    from: 'server',
    since: '2024-11-05',
    capability: srv('logging'),
  },
  // Client features (server-to-client requests in the legacy era; MRTR input requests in the modern era)
  {
    method: 'sampling/createMessage',
    kind: 'request',
    from: 'server',
    since: '2024-11-05',
    capability: cli('sampling'),
  },
  {
    method: 'elicitation/create',
    kind: 'request',
    from: 'server',
    since: '2025-06-18',
    capability: cli('elicitation'),
  },
  { method: 'roots/list', kind: 'request', from: 'server', since: '2024-11-05', capability: cli('roots') },
  {
    method: 'notifications/roots/list_changed',
    kind: 'notification',
    from: 'client',
    since: '2024-11-05',
    removedIn: '2026-07-28',
    capability: cli('roots'),
  },
  {
    method: 'notifications/elicitation/complete',
    kind: 'notification',
    from: 'server',
    since: '2025-11-25',
    removedIn: '2026-07-28',
  },
  // Subscriptions (modern)
  { method: 'subscriptions/listen', kind: 'request', from: 'client', since: '2026-07-28' },
  {
    method: 'notifications/subscriptions/acknowledged',
    kind: 'notification',
    from: 'server',
    since: '2026-07-28',
  },
  // Tasks (2025-11-25 core; an extension afterwards)
  // tasks/get and tasks/cancel continue in the tasks extension (client to server only there).
  { method: 'tasks/get', kind: 'request', from: 'both', since: '2025-11-25' },
  { method: 'tasks/result', kind: 'request', from: 'both', since: '2025-11-25', removedIn: '2026-07-28' },
  { method: 'tasks/list', kind: 'request', from: 'both', since: '2025-11-25', removedIn: '2026-07-28' },
  { method: 'tasks/cancel', kind: 'request', from: 'both', since: '2025-11-25' },
  { method: 'tasks/update', kind: 'request', from: 'client', since: '2026-07-28' },
  { method: 'notifications/tasks', kind: 'notification', from: 'server', since: '2026-07-28' },
  {
    method: 'notifications/tasks/status',
    kind: 'notification',
    from: 'both',
    since: '2025-11-25',
    removedIn: '2026-07-28',
  },
];

const byName: ReadonlyMap<string, MethodDescriptor> = new Map(table.map((d) => [d.method, d]));

/** All method descriptors, in a stable order. */
export const METHODS: readonly MethodDescriptor[] = table;

/** The descriptor of a method, if MCP defines it. A Map, so `__proto__` and friends are never found. */
export function describeMethod(method: string): MethodDescriptor | undefined {
  return byName.get(method);
}

/** Whether a method exists in a revision. */
export function methodInRevision(d: MethodDescriptor, version: string): boolean {
  return version >= d.since && (d.removedIn === undefined || version < d.removedIn);
}

/** Whether `role` may send this method. */
export function canSend(d: MethodDescriptor, role: 'client' | 'server'): boolean {
  return d.from === 'both' || d.from === role;
}

/**
 * Reads a capability path such as `resources.subscribe` from a capabilities object.
 * Own properties only, so prototype keys never count as declared.
 */
export function hasCapability(capabilities: unknown, path: string): boolean {
  let node: unknown = capabilities;
  let start = 0;
  for (;;) {
    const dot = path.indexOf('.', start);
    const key = dot === -1 ? path.slice(start) : path.slice(start, dot);
    if (typeof node !== 'object' || node === null || !Object.hasOwn(node, key)) return false;
    node = (node as Record<string, unknown>)[key];
    if (dot === -1) return node !== undefined && node !== null && node !== false;
    start = dot + 1;
  }
}
