// Servers added from the page, the page's settings, and the servers as a config snippet.
import { useState } from 'preact/hooks';
import { api } from './api';
import { ServerCardPreview } from './server-card';
import { settings, updateSettings } from './settings';

type Kind = 'stdio' | 'http' | 'sse';

/** Splits a command line on spaces, keeping "quoted parts" together. */
function words(line: string): string[] {
  const out: string[] = [];
  for (const m of line.matchAll(/"([^"]*)"|'([^']*)'|(\S+)/g)) out.push(m[1] ?? m[2] ?? m[3]!);
  return out;
}

/** A form to connect one more server: a command to start (stdio) or a URL. */
export function ConnectForm() {
  const [kind, setKind] = useState<Kind>('stdio');
  const [name, setName] = useState('');
  const [target, setTarget] = useState('');
  const [era, setEra] = useState('auto');
  const [extra, setExtra] = useState('');
  const [busy, setBusy] = useState(false);
  const [outcome, setOutcome] = useState<{ ok: boolean; text: string } | undefined>(undefined);
  const submit = async (): Promise<void> => {
    const parts = words(target);
    const entry: Record<string, unknown> =
      kind === 'stdio'
        ? { command: parts[0] ?? '', args: parts.slice(1) }
        : { type: kind, url: target.trim() };
    if (era !== 'auto') entry.era = era;
    // One per line: NAME=value (a command's environment) or Name: value (HTTP headers).
    const pairs: Record<string, string> = {};
    for (const line of extra
      .split('\n')
      .map((l) => l.trim())
      .filter(Boolean)) {
      const m = kind === 'stdio' ? /^([^=\s]+)=(.*)$/.exec(line) : /^([^:\s]+):\s*(.*)$/.exec(line);
      if (!m) {
        setOutcome({ ok: false, text: `Not ${kind === 'stdio' ? 'NAME=value' : 'Name: value'}: ${line}` });
        return;
      }
      pairs[m[1]!] = m[2]!;
    }
    if (Object.keys(pairs).length) entry[kind === 'stdio' ? 'env' : 'headers'] = pairs;
    setBusy(true);
    const a = await api<{ server?: { state: string; lastError?: string } }>('connect', { name, entry });
    setBusy(false);
    if (a.error) setOutcome({ ok: false, text: a.error.message });
    else
      setOutcome({
        ok: a.server?.state === 'ready',
        text: `${name}: ${a.server?.state ?? '?'}${a.server?.lastError ? ` (${a.server.lastError})` : ''}`,
      });
  };
  return (
    <form
      class="card connect-form"
      data-testid="connect-form"
      onSubmit={(e) => {
        e.preventDefault();
        void submit();
      }}
    >
      <h2>Connect a server</h2>
      <div class="row">
        <label class="field">
          <span class="field-label">Name</span>
          <input
            data-testid="connect-name"
            required
            pattern="[\w.\-]{1,64}"
            value={name}
            onInput={(e) => setName((e.target as HTMLInputElement).value)}
          />
        </label>
        <label class="field">
          <span class="field-label">Transport</span>
          <select
            data-testid="connect-transport"
            value={kind}
            onChange={(e) => setKind((e.target as HTMLSelectElement).value as Kind)}
          >
            <option value="stdio">stdio (start a command)</option>
            <option value="http">Streamable HTTP</option>
            <option value="sse">HTTP+SSE (legacy)</option>
          </select>
        </label>
        <label class="field">
          <span class="field-label">Era</span>
          <select value={era} onChange={(e) => setEra((e.target as HTMLSelectElement).value)}>
            <option value="auto">auto</option>
            <option value="modern">modern (2026-07-28)</option>
            <option value="legacy">legacy (initialize)</option>
          </select>
        </label>
      </div>
      <label class="field">
        <span class="field-label">
          {kind === 'stdio' ? 'Command' : 'URL'}
          <span class="hint">
            {kind === 'stdio' ? 'the command and its arguments: starting it runs it on this machine' : ''}
          </span>
        </span>
        <input
          data-testid="connect-target"
          required
          value={target}
          placeholder={
            kind === 'stdio' ? 'npx -y @modelcontextprotocol/server-everything' : 'http://127.0.0.1:3000/mcp'
          }
          onInput={(e) => setTarget((e.target as HTMLInputElement).value)}
        />
      </label>
      {kind !== 'stdio' && <ServerCardPreview url={target} />}
      <label class="field">
        <span class="field-label">
          {kind === 'stdio' ? 'Environment' : 'Headers'}
          <span class="hint">
            {kind === 'stdio' ? 'NAME=value, one per line' : 'Name: value, one per line (e.g. Authorization)'}
          </span>
        </span>
        <textarea
          rows={2}
          data-testid="connect-extra"
          value={extra}
          onInput={(e) => setExtra((e.target as HTMLTextAreaElement).value)}
        />
      </label>
      <div class="buttons">
        <button type="submit" data-testid="connect" disabled={busy}>
          {busy ? 'Connecting…' : 'Connect'}
        </button>
        {outcome && (
          <span class={`tag ${outcome.ok ? '' : 'bad'}`} data-testid="connect-result">
            {outcome.text}
          </span>
        )}
      </div>
    </form>
  );
}

/** The page's settings: the request timeout (the theme is in the header). */
export function SettingsCard() {
  const [value, setValue] = useState(settings.timeoutMs === undefined ? '' : String(settings.timeoutMs));
  const [note, setNote] = useState('');
  return (
    <form
      class="card"
      data-testid="settings"
      onSubmit={(e) => {
        e.preventDefault();
        const n = value.trim() === '' ? undefined : Number(value);
        if (n !== undefined && (!Number.isInteger(n) || n < 1000 || n > 86_400_000)) {
          setNote('A timeout is a whole number of milliseconds from 1000 to 86400000');
          return;
        }
        updateSettings({ timeoutMs: n });
        setNote(n === undefined ? 'the servers’ own timeouts apply' : `requests time out after ${n} ms`);
      }}
    >
      <h2>Settings</h2>
      <label class="field">
        <span class="field-label">
          Request timeout (ms)<span class="hint">tool calls, reads and prompts; empty: the config’s</span>
        </span>
        <input
          type="number"
          min={1000}
          data-testid="timeout"
          value={value}
          onInput={(e) => setValue((e.target as HTMLInputElement).value)}
        />
      </label>
      <div class="buttons">
        <button type="submit" data-testid="save-settings">
          Save
        </button>
        {note && <span data-testid="settings-result">{note}</span>}
      </div>
    </form>
  );
}

/** The servers as an `mcpServers` config, shown and copied to the clipboard. */
export function ConfigSnippet() {
  const [text, setText] = useState<string | undefined>(undefined);
  const [copied, setCopied] = useState('');
  return (
    <div class="card">
      <h2>Config</h2>
      <div class="buttons">
        <button
          data-testid="copy-config"
          onClick={() =>
            void api<{ mcpServers?: unknown }>('config-snippet', {}).then(async (a) => {
              if (a.error) return setCopied(a.error.message);
              const json = JSON.stringify({ mcpServers: a.mcpServers }, null, 2);
              setText(json);
              try {
                await navigator.clipboard.writeText(json);
                setCopied('copied to the clipboard');
              } catch {
                setCopied('select it below to copy (the clipboard is not available)');
              }
            })
          }
        >
          Copy mcpServers config
        </button>
        {copied && <span data-testid="copy-result">{copied}</span>}
      </div>
      {text && (
        <pre class="json snippet" data-testid="config-snippet">
          {text}
        </pre>
      )}
    </div>
  );
}
