/**
 * One catalog of every server's tools, resources and prompts. Each tool and prompt gets
 * a stable LLM-facing alias (`server__tool`, see {@link aliasFor}); the entry keeps the
 * exact (server, name) pair it came from, and that pair is what policy and calls use.
 * Tools are pinned: the hash of each approved definition is stored, and a definition that
 * changes afterwards is held back until approved again.
 */
import type { Prompt, Resource, ResourceTemplate, Tool } from '../../protocol/types/index.js';
import { aliasFor, withDigest } from './names.js';
import { toolHash } from '../policy/pins.js';
import type { ApprovalStore } from '../policy/pins.js';
import { inspectTool } from '../policy/tool-inspection.js';
import type { ToolWarning } from '../policy/tool-inspection.js';

/**
 * - `approved`: offered to the model and callable (policy still applies);
 * - `pending`: new, waiting for a first approval (strict pinning);
 * - `changed`: differs from the pinned definition; approval needed again;
 * - `flagged`: the definition looks like tool poisoning; approval needed;
 * - `conflict`: the server lists two tools under this name; never offered or called.
 */
export type ToolStatus = 'approved' | 'pending' | 'changed' | 'flagged' | 'conflict';

/** How new tools are treated: trusted on first sight (unless flagged), held for approval, or not pinned. */
export type PinningMode = 'trust-on-first-use' | 'strict' | 'off';

export interface CatalogTool {
  /** The LLM-facing name. */
  alias: string;
  server: string;
  /** The tool's exact name on its server. */
  name: string;
  definition: Tool;
  /** SHA-256 of the canonical definition. */
  hash: string;
  status: ToolStatus;
  warnings: ToolWarning[];
  /** The approved definition it replaced (`changed`, when known in this session). */
  previous: Tool | undefined;
}

export interface CatalogResource {
  server: string;
  uri: string;
  definition: Resource;
}

export interface CatalogTemplate {
  server: string;
  uriTemplate: string;
  definition: ResourceTemplate;
}

export interface CatalogPrompt {
  alias: string;
  server: string;
  name: string;
  definition: Prompt;
}

/** What changed in one update. */
export interface CatalogChange {
  server: string;
  kind: 'tools' | 'resources' | 'prompts';
  /** Aliases (tools, prompts) or URIs (resources). */
  added: string[];
  removed: string[];
  /** Tools whose definition changed. */
  changed: string[];
  /** Problems found in this update, one sentence each. */
  problems: string[];
}

/**
 * The aggregated catalog. The host feeds it each server's lists; UIs and the agent read it.
 *
 * @example
 * ```ts
 * for (const t of host.catalog.tools()) console.log(t.alias, t.status);
 * host.catalog.resolve('files__read_file'); // { server: 'files', name: 'read_file', ... }
 * ```
 */
export class Catalog {
  onchange: ((change: CatalogChange) => void) | undefined;
  private readonly byServer = new Map<string, Map<string, CatalogTool>>();
  private readonly aliases = new Map<string, CatalogTool>();
  private readonly resourcesOf = new Map<
    string,
    { resources: CatalogResource[]; templates: CatalogTemplate[] }
  >();
  private readonly promptsOf = new Map<string, CatalogPrompt[]>();
  /** Definitions approved in this session, to show what changed. */
  private readonly approvedDefs = new Map<string, Tool>();
  /** Per server: a counter so an older listing finishing late cannot overwrite a newer one. */
  private readonly generations = new Map<string, number>();

  constructor(
    private readonly store: ApprovalStore,
    private readonly mode: PinningMode = 'trust-on-first-use',
  ) {}

  /** Every tool of every ready server, in server then listing order. */
  tools(): CatalogTool[] {
    return [...this.byServer.values()].flatMap((m) => [...m.values()]);
  }

  /** The tools the model may be offered: `approved` ones. */
  usableTools(): CatalogTool[] {
    return this.tools().filter((t) => t.status === 'approved');
  }

  /** The entry behind an alias. */
  resolve(alias: string): CatalogTool | undefined {
    return this.aliases.get(alias);
  }

  /** The entry for an exact (server, tool) pair. */
  find(server: string, name: string): CatalogTool | undefined {
    return this.byServer.get(server)?.get(name);
  }

  resources(): CatalogResource[] {
    return [...this.resourcesOf.values()].flatMap((r) => r.resources);
  }

  resourceTemplates(): CatalogTemplate[] {
    return [...this.resourcesOf.values()].flatMap((r) => r.templates);
  }

  prompts(): CatalogPrompt[] {
    return [...this.promptsOf.values()].flat();
  }

  resolvePrompt(alias: string): CatalogPrompt | undefined {
    return this.prompts().find((p) => p.alias === alias);
  }

  /** Replaces one server's tools with a fresh listing. */
  async setTools(server: string, tools: readonly Tool[]): Promise<CatalogChange> {
    const generation = (this.generations.get(server) ?? 0) + 1;
    this.generations.set(server, generation);
    const counts = new Map<string, number>();
    for (const t of tools) counts.set(t.name, (counts.get(t.name) ?? 0) + 1);
    const hashes = await Promise.all(tools.map((t) => toolHash(t)));
    if (this.generations.get(server) !== generation) return emptyChange(server, 'tools');
    const old = this.byServer.get(server) ?? new Map<string, CatalogTool>();
    const next = new Map<string, CatalogTool>();
    const change: CatalogChange = {
      server,
      kind: 'tools',
      added: [],
      removed: [],
      changed: [],
      problems: [],
    };
    tools.forEach((def, i) => {
      if (next.has(def.name)) return;
      const hash = hashes[i]!;
      const entry: CatalogTool = {
        alias: this.aliasOf(server, def.name),
        server,
        name: def.name,
        definition: def,
        hash,
        status: 'approved',
        warnings: inspectTool(def),
        previous: undefined,
      };
      if ((counts.get(def.name) ?? 0) > 1) {
        entry.status = 'conflict';
        change.problems.push(
          `Server ${JSON.stringify(server)} lists ${counts.get(def.name)} tools named ${JSON.stringify(def.name)}: ` +
            'none of them is offered or callable until the server lists the name once',
        );
      } else {
        entry.status = this.statusOf(entry);
        if (entry.status === 'flagged') {
          change.problems.push(
            `Tool ${JSON.stringify(def.name)} of ${JSON.stringify(server)} looks unsafe (` +
              entry.warnings.map((w) => `${w.field} ${w.message}`).join('; ') +
              '): it is held back until someone approves it',
          );
        }
        if (entry.status === 'changed') {
          entry.previous = this.approvedDefs.get(key(server, def.name));
          change.problems.push(
            `Tool ${JSON.stringify(def.name)} of ${JSON.stringify(server)} changed since it was approved: ` +
              'it is held back until someone approves the new definition',
          );
        }
      }
      const before = old.get(def.name);
      if (!before) change.added.push(entry.alias);
      else if (before.hash !== hash) change.changed.push(entry.alias);
      next.set(def.name, entry);
    });
    for (const [name, entry] of old) if (!next.has(name)) change.removed.push(entry.alias);
    for (const entry of old.values()) this.aliases.delete(entry.alias);
    for (const entry of next.values()) this.aliases.set(entry.alias, entry);
    this.byServer.set(server, next);
    this.emit(change);
    return change;
  }

  /** Replaces one server's resources and templates. */
  setResources(
    server: string,
    resources: readonly Resource[],
    templates: readonly ResourceTemplate[],
  ): CatalogChange {
    const old = new Set((this.resourcesOf.get(server)?.resources ?? []).map((r) => r.uri));
    const list = resources.map((definition) => ({ server, uri: definition.uri, definition }));
    const tpl = templates.map((definition) => ({ server, uriTemplate: definition.uriTemplate, definition }));
    this.resourcesOf.set(server, { resources: list, templates: tpl });
    const now = new Set(list.map((r) => r.uri));
    const change: CatalogChange = {
      server,
      kind: 'resources',
      added: [...now].filter((u) => !old.has(u)),
      removed: [...old].filter((u) => !now.has(u)),
      changed: [],
      problems: [],
    };
    this.emit(change);
    return change;
  }

  /** Replaces one server's prompts. */
  setPrompts(server: string, prompts: readonly Prompt[]): CatalogChange {
    const old = new Set((this.promptsOf.get(server) ?? []).map((p) => p.alias));
    const seen = new Set<string>();
    const list: CatalogPrompt[] = [];
    for (const definition of prompts) {
      if (seen.has(definition.name)) continue;
      seen.add(definition.name);
      list.push({ alias: aliasFor(server, definition.name), server, name: definition.name, definition });
    }
    this.promptsOf.set(server, list);
    const now = new Set(list.map((p) => p.alias));
    const change: CatalogChange = {
      server,
      kind: 'prompts',
      added: [...now].filter((a) => !old.has(a)),
      removed: [...old].filter((a) => !now.has(a)),
      changed: [],
      problems: [],
    };
    this.emit(change);
    return change;
  }

  /** Drops everything of a server (it went down); its pins stay. */
  clearServer(server: string): void {
    this.generations.set(server, (this.generations.get(server) ?? 0) + 1);
    const tools = this.byServer.get(server);
    if (tools && tools.size > 0) {
      for (const t of tools.values()) this.aliases.delete(t.alias);
      this.emit({
        server,
        kind: 'tools',
        added: [],
        removed: [...tools.values()].map((t) => t.alias),
        changed: [],
        problems: [],
      });
    }
    this.byServer.delete(server);
    if (this.resourcesOf.delete(server)) this.emit(emptyChange(server, 'resources'));
    if (this.promptsOf.delete(server)) this.emit(emptyChange(server, 'prompts'));
  }

  /**
   * Approves a tool's current definition: pins its hash so it is offered and callable.
   * A `conflict` cannot be approved.
   */
  approve(entry: CatalogTool): void {
    if (entry.status === 'conflict') return;
    this.store.setPin(entry.server, entry.name, entry.hash);
    this.approvedDefs.set(key(entry.server, entry.name), entry.definition);
    const wasUsable = entry.status === 'approved';
    entry.status = 'approved';
    entry.previous = undefined;
    if (!wasUsable)
      this.emit({
        server: entry.server,
        kind: 'tools',
        added: [],
        removed: [],
        changed: [entry.alias],
        problems: [],
      });
  }

  private statusOf(entry: CatalogTool): ToolStatus {
    if (this.mode === 'off') return 'approved';
    const pinned = this.store.getPin(entry.server, entry.name);
    if (pinned === entry.hash) {
      this.approvedDefs.set(key(entry.server, entry.name), entry.definition);
      return 'approved';
    }
    if (pinned !== undefined) return 'changed';
    if (entry.warnings.length > 0) return 'flagged';
    if (this.mode === 'strict') return 'pending';
    this.store.setPin(entry.server, entry.name, entry.hash);
    this.approvedDefs.set(key(entry.server, entry.name), entry.definition);
    return 'approved';
  }

  /** The alias for a pair; on the (astronomically unlikely) clash with another pair, a longer digest. */
  private aliasOf(server: string, name: string): string {
    let alias = aliasFor(server, name);
    const taken = this.aliases.get(alias);
    if (taken && (taken.server !== server || taken.name !== name)) {
      alias = withDigest(alias.slice(0, 40), server, name, 16);
    }
    return alias;
  }

  private emit(change: CatalogChange): void {
    this.onchange?.(change);
  }
}

function key(server: string, tool: string): string {
  return JSON.stringify([server, tool]);
}

function emptyChange(server: string, kind: CatalogChange['kind']): CatalogChange {
  return { server, kind, added: [], removed: [], changed: [], problems: [] };
}
