/**
 * Per-revision wire shaping: results and notifications are written once, for the newest
 * revision, and shaped here for the revision a connection negotiated. A field the revision
 * does not define is dropped; a content block it does not define is down-converted to text
 * (audio becomes a note, a resource link its name and URI, structured content its JSON), so
 * an older client sees only what its schema describes and loses no meaning it could show.
 *
 * One table keyed by method says which results and notifications carry what; the session
 * calls {@link shapeResult} and {@link shapeNotification} on its outbound path. Each
 * revision lists the methods it needs shaped, so the newest legacy revision (2025-11-25)
 * costs one map lookup per message, and the modern one (which dropped tool `execution` and
 * the `tasks` capability with the tasks extension) shapes only `tools/list` and
 * `server/discover`. A result is copied only where something changes.
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
  /** The `extensions` capability (SEP-2133, 2025-11-25). */
  readonly extensions: boolean;
}

const r2025_03_26 = { audio: true, toolAnnotations: true, completions: true, progressMessage: true };
const r2025_06_18 = { title: true, itemMeta: true, structured: true, resourceLink: true, lastModified: true };
const r2025_11_25 = {
  icons: true,
  execution: true,
  tasks: true,
  implementationDetails: true,
  extensions: true,
};
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
  extensions: false,
};

/** What each revision defines. 2025-11-25 defines everything we emit, so it is absent. */
const REVISIONS: ReadonlyArray<[string, Features]> = [
  ['2024-11-05', none],
  ['2025-03-26', { ...none, ...r2025_03_26 }],
  ['2025-06-18', { ...none, ...r2025_03_26, ...r2025_06_18 }],
  // The tasks extension replaced the 2025-11-25 tool `execution` field and `tasks` capability.
  ['2026-07-28', { ...none, ...r2025_03_26, ...r2025_06_18, ...r2025_11_25, execution: false, tasks: false }],
];

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

/** `value` with each item of its list `key` shaped; copied only when an item changed. */
function mapList(value: Obj, key: string, shape: (item: Obj, f: Features) => Obj, f: Features): Obj {
  const list = value[key];
  if (!Array.isArray(list)) return value;
  let out: unknown[] | undefined;
  for (let i = 0; i < list.length; i++) {
    const item: unknown = list[i];
    const shaped = isObj(item) ? shape(item, f) : item;
    if (shaped !== item) {
      out ??= list.slice(0, i);
    }
    if (out) out.push(shaped);
  }
  return out ? { ...value, [key]: out } : value;
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

function withContent(holder: Obj, f: Features): Obj {
  if (!isObj(holder.content)) return holder;
  const shaped = content(holder.content, f);
  return shaped === holder.content ? holder : { ...holder, content: shaped };
}

function getPromptResult(r: Obj, f: Features): Obj {
  return mapList(r, 'messages', withContent, f);
}

function implementation(i: Obj, f: Features): Obj {
  const drops = f.title ? [] : ['title'];
  if (!f.implementationDetails) drops.push('icons', 'description', 'websiteUrl');
  return without(i, drops);
}

function capabilities(r: Obj, f: Features): Obj {
  if (!isObj(r.capabilities)) return r;
  const drops = f.completions ? [] : ['completions'];
  if (!f.tasks) drops.push('tasks');
  if (!f.extensions) drops.push('extensions');
  const caps = without(r.capabilities, drops);
  return caps === r.capabilities ? r : { ...r, capabilities: caps };
}

function initializeResult(r: Obj, f: Features): Obj {
  let out = capabilities(r, f);
  if (isObj(out.serverInfo)) {
    const info = implementation(out.serverInfo, f);
    if (info !== out.serverInfo) out = { ...out, serverInfo: info };
  }
  return out;
}

type Shaper = (value: Obj, f: Features) => Obj;

/**
 * Results by method: how to shape the answer to that request, and whether a revision needs
 * it (a revision that defines every field the shaper touches skips it).
 */
const RESULTS: Readonly<Record<string, { shape: Shaper; needed: (f: Features) => boolean }>> = {
  initialize: {
    shape: initializeResult,
    needed: (f) => !f.title || !f.implementationDetails || !f.completions || !f.tasks || !f.extensions,
  },
  'server/discover': { shape: capabilities, needed: (f) => !f.completions || !f.tasks || !f.extensions },
  'tools/list': { shape: (r, f) => mapList(r, 'tools', tool, f), needed: (f) => !all(f) || !f.execution },
  'tools/call': { shape: callToolResult, needed: (f) => !all(f) },
  'resources/list': { shape: (r, f) => mapList(r, 'resources', resource, f), needed: (f) => !all(f) },
  'resources/templates/list': {
    shape: (r, f) => mapList(r, 'resourceTemplates', resource, f),
    needed: (f) => !all(f),
  },
  'resources/read': {
    shape: (r, f) => mapList(r, 'contents', resourceContents, f),
    needed: (f) => !f.itemMeta,
  },
  'prompts/list': { shape: (r, f) => mapList(r, 'prompts', prompt, f), needed: (f) => !all(f) },
  'prompts/get': { shape: getPromptResult, needed: (f) => !all(f) },
  // Answered by a client: its sampling result has content blocks too.
  'sampling/createMessage': { shape: withContent, needed: (f) => !all(f) },
};

/** Whether a revision has every content and item field (it may still lack execution/tasks). */
function all(f: Features): boolean {
  return (
    f.audio &&
    f.toolAnnotations &&
    f.title &&
    f.itemMeta &&
    f.structured &&
    f.resourceLink &&
    f.lastModified &&
    f.icons
  );
}

/** Notification params by method. */
const NOTIFICATIONS: Readonly<Record<string, { shape: Shaper; needed: (f: Features) => boolean }>> = {
  'notifications/progress': { shape: (p) => without(p, ['message']), needed: (f) => !f.progressMessage },
};

/** Per revision, the shaper of each method it needs shaped (computed once). */
function tables(source: typeof RESULTS): ReadonlyMap<string, ReadonlyMap<string, (v: Obj) => Obj>> {
  const out = new Map<string, Map<string, (v: Obj) => Obj>>();
  for (const [revision, f] of REVISIONS) {
    const methods = new Map<string, (v: Obj) => Obj>();
    for (const [method, { shape, needed }] of Object.entries(source)) {
      if (needed(f)) methods.set(method, (v) => shape(v, f));
    }
    if (methods.size > 0) out.set(revision, methods);
  }
  return out;
}

// Built at the first message rather than at import: importing the package stays cheap.
let resultShapers: ReturnType<typeof tables> | undefined;
let notificationShapers: ReturnType<typeof tables> | undefined;

/**
 * The result of `method` as `revision` defines it. Returns `result` itself when nothing
 * needs to change (always for the newest revision of each era).
 */
export function shapeResult(method: string, revision: string | undefined, result: Obj): Obj {
  const shape =
    revision === undefined ? undefined : (resultShapers ??= tables(RESULTS)).get(revision)?.get(method);
  return shape ? shape(result) : result;
}

/** The params of notification `method` as `revision` defines them (`params` itself when unchanged). */
export function shapeNotification<P extends Obj | undefined>(
  method: string,
  revision: string | undefined,
  params: P,
): P {
  const shape =
    revision === undefined || params === undefined
      ? undefined
      : (notificationShapers ??= tables(NOTIFICATIONS)).get(revision)?.get(method);
  return shape ? (shape(params as Obj) as P) : params;
}

/** Whether {@link shapeResult} may change a result of `method` in `revision`. */
export function shapesResult(method: string, revision: string): boolean {
  return (resultShapers ??= tables(RESULTS)).get(revision)?.has(method) === true;
}

/** Whether {@link shapeResult} may change anything for `revision` (false: the revision has every field). */
export function revisionNeedsShaping(revision: string | undefined): boolean {
  return revision !== undefined && (resultShapers ??= tables(RESULTS)).has(revision);
}
