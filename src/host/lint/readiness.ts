import type { Client } from '../../client/client.js';
import { LocalError, WireError } from '../../jsonrpc/index.js';
import type { LintFinding } from './finding.js';

/** What the listing found, for the summary line. */
export interface Inventory {
  tools: Record<string, unknown>[];
  resources: number;
  templates: number;
  prompts: number;
  /** Pages read per list, following `nextCursor`. */
  pages: Record<string, number>;
}

type Kind = 'tools' | 'resources' | 'resourceTemplates' | 'prompts';
const MAX_PAGES = 1000;

/**
 * Walks one list to its end by hand (not with the client's iterator) so that a repeated
 * cursor or an item listed twice is a finding rather than a loop or a silent duplicate.
 */
async function listAll(
  client: Client,
  kind: Kind,
  out: LintFinding[],
): Promise<{ items: Record<string, unknown>[]; pages: number } | undefined> {
  const fetchPage = (cursor: string | undefined): Promise<Record<string, unknown>> => {
    const params = cursor === undefined ? undefined : { cursor };
    switch (kind) {
      case 'tools':
        return client.listTools(params) as unknown as Promise<Record<string, unknown>>;
      case 'resources':
        return client.listResources(params) as unknown as Promise<Record<string, unknown>>;
      case 'resourceTemplates':
        return client.listResourceTemplates(params) as unknown as Promise<Record<string, unknown>>;
      default:
        return client.listPrompts(params) as unknown as Promise<Record<string, unknown>>;
    }
  };
  const key = kind === 'resources' ? 'uri' : kind === 'resourceTemplates' ? 'uriTemplate' : 'name';
  const items: Record<string, unknown>[] = [];
  const seen = new Set<string>();
  const cursors = new Set<string>();
  let cursor: string | undefined;
  let pages = 0;
  try {
    do {
      const page = await fetchPage(cursor);
      pages++;
      for (const item of (page[kind] as Record<string, unknown>[] | undefined) ?? []) {
        const id = String(item[key]);
        if (seen.has(id))
          out.push({
            severity: 'error',
            rule: 'readiness/pagination-duplicate',
            subject: 'server',
            message: `${kind}/list gave ${id} twice`,
          });
        seen.add(id);
        items.push(item);
      }
      cursor = typeof page.nextCursor === 'string' ? page.nextCursor : undefined;
      if (cursor !== undefined && cursors.has(cursor)) {
        out.push({
          severity: 'error',
          rule: 'readiness/pagination-loop',
          subject: 'server',
          message: `${kind}/list gave cursor ${JSON.stringify(cursor)} twice`,
        });
        break;
      }
      if (cursor !== undefined) cursors.add(cursor);
    } while (cursor !== undefined && pages < MAX_PAGES);
  } catch (e) {
    const why =
      e instanceof WireError
        ? `error ${e.code}: ${e.message}`
        : e instanceof LocalError
          ? `${e.code}: ${e.message}`
          : String(e);
    out.push({
      severity: 'error',
      rule: 'readiness/list-fails',
      subject: 'server',
      message: `${kind}/list failed (${why})`,
    });
    return undefined;
  }
  return { items, pages };
}

const CAPABILITY: Record<Kind, 'tools' | 'resources' | 'prompts'> = {
  tools: 'tools',
  resources: 'resources',
  resourceTemplates: 'resources',
  prompts: 'prompts',
};

/** Lists everything the server declares and checks what a host needs to use it well. */
export async function readiness(client: Client, out: LintFinding[]): Promise<Inventory> {
  const caps = (client.serverCapabilities ?? {}) as Record<string, unknown>;
  const inv: Inventory = { tools: [], resources: 0, templates: 0, prompts: 0, pages: {} };
  for (const kind of ['tools', 'resources', 'resourceTemplates', 'prompts'] as const) {
    if (caps[CAPABILITY[kind]] === undefined) continue;
    const got = await listAll(client, kind, out);
    if (!got) continue;
    inv.pages[kind] = got.pages;
    if (kind === 'tools') inv.tools = got.items;
    else if (kind === 'resources') inv.resources = got.items.length;
    else if (kind === 'resourceTemplates') inv.templates = got.items.length;
    else inv.prompts = got.items.length;
  }
  for (const cap of ['tools', 'resources', 'prompts'] as const) {
    const count =
      cap === 'tools' ? inv.tools.length : cap === 'resources' ? inv.resources + inv.templates : inv.prompts;
    if (caps[cap] !== undefined && count === 0)
      out.push({
        severity: 'info',
        rule: 'readiness/capability-unused',
        subject: 'server',
        message: `declares ${cap} but lists none`,
      });
  }
  if (caps.tools === undefined)
    out.push({
      severity: 'info',
      rule: 'readiness/no-tools',
      subject: 'server',
      message: 'declares no tools capability',
    });
  for (const tool of inv.tools) toolReadiness(tool, out);
  return inv;
}

function toolReadiness(tool: Record<string, unknown>, out: LintFinding[]): void {
  const subject = `tool:${String(tool.name)}`;
  const add = (severity: LintFinding['severity'], rule: string, message: string): void => {
    out.push({ severity, rule, subject, message });
  };
  if (typeof tool.description !== 'string' || tool.description.trim() === '')
    add('warning', 'readiness/tool-description', 'no description: a model chooses tools by it');
  if (
    tool.title === undefined &&
    (tool.annotations as Record<string, unknown> | undefined)?.title === undefined
  )
    add('info', 'readiness/tool-title', 'no title for people to read');
  const annotations = tool.annotations as Record<string, unknown> | undefined;
  if (
    !annotations ||
    ['readOnlyHint', 'destructiveHint', 'idempotentHint', 'openWorldHint'].every(
      (k) => annotations[k] === undefined,
    )
  )
    add(
      'warning',
      'readiness/tool-annotations',
      'no annotations (readOnlyHint, destructiveHint, idempotentHint, openWorldHint): hosts ask before every call',
    );
  const props = ((tool.inputSchema as Record<string, unknown> | undefined)?.properties ?? {}) as Record<
    string,
    Record<string, unknown>
  >;
  const bare = Object.entries(props)
    .filter(([, p]) => typeof p?.description !== 'string' || p.description === '')
    .map(([k]) => k);
  if (bare.length > 0)
    add(
      'warning',
      'readiness/property-description',
      `input properties without a description: ${bare.join(', ')}`,
    );
  const output = tool.outputSchema as Record<string, unknown> | undefined;
  if (output !== undefined && output.type !== 'object')
    add(
      'error',
      'readiness/output-schema-object',
      'outputSchema must be type: "object" (structuredContent is an object)',
    );
}

/**
 * With `--probe`: calls each tool that says it is read-only and needs no arguments, once,
 * and flags `structuredContent` from a tool without an `outputSchema` (hosts cannot know
 * its shape) and calls slower than `slowMs` (a host's call timeout is often short).
 */
export async function probeTools(
  client: Client,
  tools: readonly Record<string, unknown>[],
  out: LintFinding[],
  slowMs = 5000,
): Promise<number> {
  let probed = 0;
  for (const tool of tools) {
    const annotations = tool.annotations as Record<string, unknown> | undefined;
    const required = (tool.inputSchema as Record<string, unknown> | undefined)?.required;
    if (annotations?.readOnlyHint !== true || (Array.isArray(required) && required.length > 0)) continue;
    const subject = `tool:${String(tool.name)}`;
    probed++;
    const t0 = performance.now();
    try {
      const r = await client.callTool({ name: String(tool.name), arguments: {} }, { timeoutMs: slowMs * 2 });
      const ms = performance.now() - t0;
      if (r.structuredContent !== undefined && tool.outputSchema === undefined)
        out.push({
          severity: 'warning',
          rule: 'readiness/output-schema',
          subject,
          message: 'returns structuredContent but declares no outputSchema',
        });
      if (ms > slowMs)
        out.push({
          severity: 'warning',
          rule: 'readiness/slow-call',
          subject,
          message: `took ${Math.round(ms)} ms; hosts often time calls out sooner (run it as a task, or report progress)`,
        });
    } catch (e) {
      out.push({
        severity: 'warning',
        rule: 'readiness/probe-failed',
        subject,
        message: `a read-only call without arguments failed: ${e instanceof Error ? e.message : String(e)}`,
      });
    }
  }
  return probed;
}
