// Servers connected from this page, remembered in this browser's storage for this
// inspector's origin, and the last one used (the form starts from it). Only what names a
// server is kept: its name, transport, command line or URL, and era. Environment values
// and headers are never stored: they often hold tokens (an Authorization header, an API
// key), and localStorage is plain text on disk readable by anything with the profile.

export type Kind = 'stdio' | 'http' | 'sse';

export interface SavedServer {
  name: string;
  kind: Kind;
  /** The command line (stdio) or the URL. */
  target: string;
  era: string;
}

const KEY = 'mcpkit-inspector-servers';
/** More than a person keeps by hand; the oldest go first. */
const KEEP = 20;

interface Stored {
  saved: SavedServer[];
  last: SavedServer | undefined;
}

function valid(v: unknown): v is SavedServer {
  const s = v as SavedServer;
  return (
    typeof v === 'object' &&
    v !== null &&
    typeof s.name === 'string' &&
    (s.kind === 'stdio' || s.kind === 'http' || s.kind === 'sse') &&
    typeof s.target === 'string' &&
    typeof s.era === 'string'
  );
}

function pick(s: SavedServer): SavedServer {
  return { name: s.name, kind: s.kind, target: s.target, era: s.era };
}

/** What is stored; nothing when storage is off or holds something else. */
export function loadSaved(): Stored {
  try {
    const v = JSON.parse(localStorage.getItem(KEY) ?? '{}') as Partial<Stored>;
    return {
      saved: Array.isArray(v.saved) ? v.saved.filter(valid).map(pick) : [],
      last: valid(v.last) ? pick(v.last) : undefined,
    };
  } catch {
    return { saved: [], last: undefined };
  }
}

function store(s: Stored): Stored {
  try {
    if (s.saved.length === 0 && !s.last) localStorage.removeItem(KEY);
    else localStorage.setItem(KEY, JSON.stringify(s));
  } catch {
    // storage may be off: the list lasts for this page
  }
  return s;
}

/** Remembers a server (replacing one of the same name) as the last one used. */
export function remember(server: SavedServer): Stored {
  const s = pick(server);
  const rest = loadSaved().saved.filter((x) => x.name !== s.name);
  return store({ saved: [s, ...rest].slice(0, KEEP), last: s });
}

/** Forgets one server, or every one (and the last connection) when `name` is undefined. */
export function forget(name?: string): Stored {
  if (name === undefined) return store({ saved: [], last: undefined });
  const now = loadSaved();
  return store({
    saved: now.saved.filter((x) => x.name !== name),
    last: now.last?.name === name ? undefined : now.last,
  });
}
