/**
 * Per-revision wire shaping: results and notifications are written once, for the newest
 * revision, and shaped here for the revision a connection negotiated. A field the revision
 * does not define is dropped; a content block it does not define is down-converted to text
 * (audio becomes a note, a resource link its name and URI, structured content its JSON), so
 * an older client sees only what its schema describes and loses no meaning it could show.
 *
 * One table keyed by method says which results and notifications carry what; the session
 * calls {@link shapeResult} and {@link shapeNotification} on its outbound path. The modern
 * revision and the newest legacy one (2025-11-25) define every field we emit and pass
 * through untouched, at the cost of one set lookup.
 */

type Obj = Record<string, unknown>;

/** What a legacy revision defines, where revisions differ in what we emit. */
interface Features {
  /** `audio` content blocks, tool `annotations`, the `completions` capability, progress `message` (2025-03-26). */
  readonly audio: boolean;
  readonly toolAnnotations: boolean;
  readonly completions: boolean;
  readonly progressMessage: boolean;
  /** `title`, `_meta` on items, `outputSchema`/`structuredContent`, `resource_link`, `annotations.lastModified` (2025-06-18). */
  readonly title: boolean;
  readonly itemMeta: boolean;
  readonly structured: boolean;
  readonly resourceLink: boolean;
  readonly lastModified: boolean;
  /** `icons`, tool `execution`, the `tasks` capability, `description`/`websiteUrl` on implementations (2025-11-25). */
  readonly icons: boolean;
  readonly execution: boolean;
  readonly tasks: boolean;
  readonly implementationDetails: boolean;
}

const r2025_03_26 = { audio: true, toolAnnotations: true, completions: true, progressMessage: true };
const r2025_06_18 = { title: true, itemMeta: true, structured: true, resourceLink: true, lastModified: true };
const none: Features = {
  audio: false,
  toolAnnotations: false,
  completions: false,
  progressMessage: false,
  title: false,
  itemMeta: false,
  structured: false,
  resourceLink: false,
  lastModified: false,
  icons: false,
  execution: false,
  tasks: false,
  implementationDetails: false,
};

/** The revisions that lack something we emit; any other revision is sent as it is. */
const OLDER: ReadonlyMap<string, Features> = new Map([
  ['2024-11-05', none],
  ['2025-03-26', { ...none, ...r2025_03_26 }],
  ['2025-06-18', { ...none, ...r2025_03_26, ...r2025_06_18 }],
]);

const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);

/** A shallow copy without `keys`, or the value itself when it has none of them. */
function without(value: Obj, keys: readonly string[]): Obj {
  let out: Obj | undefined;
  for (const k of keys) {
    if (k in value) {
      out ??= { ...value };
      delete out[k];
    }
  }
  return out ?? value;
}

function mapList(value: Obj, key: string, shape: (item: Obj, f: Features) => Obj, f: Features): Obj {
  const list = value[key];
  if (!Array.isArray(list)) return value;
  return { ...value, [key]: list.map((item: unknown) => (isObj(item) ? shape(item, f) : item)) };
}

function annotations(value: Obj, f: Features): Obj {
  const a = value.annotations;
  if (!isObj(a) || f.lastModified || !('lastModified' in a)) return value;
  return { ...value, annotations: without(a, ['lastModified']) };
}

/** The fields of a listed item (tool, resource, template, prompt) this revision lacks. */
function itemDrops(f: Features): string[] {
  const drops: string[] = [];
  if (!f.title) drops.push('title');
  if (!f.itemMeta) drops.push('_meta');
  if (!f.icons) drops.push('icons');
  return drops;
}

function tool(t: Obj, f: Features): Obj {
  const drops = itemDrops(f);
  if (!f.structured) drops.push('outputSchema');
  if (!f.toolAnnotations) drops.push('annotations');
  if (!f.execution) drops.push('execution');
  return without(t, drops);
}

function resource(r: Obj, f: Features): Obj {
  return annotations(without(r, itemDrops(f)), f);
}

function prompt(p: Obj, f: Features): Obj {
  const out = without(p, itemDrops(f));
  return f.title ? out : mapList(out, 'arguments', (a) => without(a, ['title']), f);
}

function resourceContents(c: Obj, f: Features): Obj {
  return f.itemMeta ? c : without(c, ['_meta']);
}

/** One content block, down-converted to text when the revision has no such block. */
function content(block: Obj, f: Features): Obj {
  let b = block;
  if (b.type === 'audio' && !f.audio) {
    const size = typeof b.data === 'string' ? Math.floor((b.data.length * 3) / 4) : 0;
    b = {
      type: 'text',
      text: `[audio content (${String(b.mimeType ?? 'unknown type')}, ${size} bytes) omitted]`,
    };
  } else if (b.type === 'resource_link' && !f.resourceLink) {
    const about = typeof b.description === 'string' ? `: ${b.description}` : '';
    b = { type: 'text', text: `[resource ${String(b.name ?? b.uri)} at ${String(b.uri)}${about}]` };
  } else if (b.type === 'resource_link' && !f.icons) {
    b = without(b, ['icons']);
  } else if (b.type === 'resource' && isObj(b.resource) && !f.itemMeta) {
    b = { ...b, resource: resourceContents(b.resource, f) };
  }
  if (!f.itemMeta) b = without(b, ['_meta']);
  return annotations(b, f);
}

function callToolResult(r: Obj, f: Features): Obj {
  let out = mapList(r, 'content', content, f);
  if (!f.structured && 'structuredContent' in out) {
    // The revision has no structuredContent: keep its data as text unless a text block holds it already.
    const json = JSON.stringify(out.structuredContent);
    const blocks = Array.isArray(out.content) ? (out.content as unknown[]) : [];
    const present = blocks.some((b) => isObj(b) && b.type === 'text' && b.text === json);
    out = without(out, ['structuredContent']);
    if (!present && json !== undefined) out.content = [...blocks, { type: 'text', text: json }];
  }
  return out;
}

function getPromptResult(r: Obj, f: Features): Obj {
  return mapList(r, 'messages', (m) => (isObj(m.content) ? { ...m, content: content(m.content, f) } : m), f);
}

function implementation(i: Obj, f: Features): Obj {
  const drops = f.title ? [] : ['title'];
  if (!f.implementationDetails) drops.push('icons', 'description', 'websiteUrl');
  return without(i, drops);
}

function initializeResult(r: Obj, f: Features): Obj {
  let out = r;
  if (isObj(r.serverInfo)) out = { ...out, serverInfo: implementation(r.serverInfo, f) };
  if (isObj(r.capabilities)) {
    const drops = f.completions ? [] : ['completions'];
    if (!f.tasks) drops.push('tasks');
    out = { ...out, capabilities: without(r.capabilities, drops) };
  }
  return out;
}

/** Results by method: what the answer to that request carries that a revision may lack. */
const RESULTS: Readonly<Record<string, (result: Obj, f: Features) => Obj>> = {
  initialize: initializeResult,
  'tools/list': (r, f) => mapList(r, 'tools', tool, f),
  'tools/call': callToolResult,
  'resources/list': (r, f) => mapList(r, 'resources', resource, f),
  'resources/templates/list': (r, f) => mapList(r, 'resourceTemplates', resource, f),
  'resources/read': (r, f) => mapList(r, 'contents', resourceContents, f),
  'prompts/list': (r, f) => mapList(r, 'prompts', prompt, f),
  'prompts/get': getPromptResult,
  // Answered by a client: its sampling result has content blocks too.
  'sampling/createMessage': (r, f) => (isObj(r.content) ? { ...r, content: content(r.content, f) } : r),
};

/** Notification params by method. */
const NOTIFICATIONS: Readonly<Record<string, (params: Obj, f: Features) => Obj>> = {
  'notifications/progress': (p, f) => (f.progressMessage ? p : without(p, ['message'])),
};

/**
 * The result of `method` as `revision` defines it. Returns `result` itself when nothing
 * needs to change (always for the newest revision of each era).
 */
export function shapeResult(method: string, revision: string | undefined, result: Obj): Obj {
  const f = revision === undefined ? undefined : OLDER.get(revision);
  const shape = f && RESULTS[method];
  return shape ? shape(result, f) : result;
}

/** The params of notification `method` as `revision` defines them (`params` itself when unchanged). */
export function shapeNotification<P extends Obj | undefined>(
  method: string,
  revision: string | undefined,
  params: P,
): P {
  const f = revision === undefined || params === undefined ? undefined : OLDER.get(revision);
  const shape = f && NOTIFICATIONS[method];
  return shape ? (shape(params as Obj, f) as P) : params;
}

/** Whether {@link shapeResult} may change anything for `revision` (false: the revision has every field). */
export function revisionNeedsShaping(revision: string | undefined): boolean {
  return revision !== undefined && OLDER.has(revision);
}
