// Servers added from the page, the page's settings, and the servers as a config snippet.
import { useState } from 'preact/hooks';
import { api } from './api';
import { ServerCardPreview } from './server-card';
import { TIMEOUT_MAX, TIMEOUT_MIN, settings, updateSettings } from './settings';
import { forget, loadSaved, remember } from './saved-servers';
import type { Kind, SavedServer } from './saved-servers';

/** Splits a command line on spaces, keeping "quoted parts" together. */
function words(line: string): string[] {
  const out: string[] = [];
  for (const m of line.matchAll(/"([^"]*)"|'([^']*)'|(\S+)/g)) out.push(m[1] ?? m[2] ?? m[3]!);
  return out;
}

/** A form to connect one more server: a command to start (stdio) or a URL. */
export function ConnectForm() {
  // The form starts from the last connection made from this browser.
  const [stored, setStored] = useState(loadSaved);
  const [kind, setKind] = useState<Kind>(stored.last?.kind ?? 'stdio');
  const [name, setName] = useState(stored.last?.name ?? '');
  const [target, setTarget] = useState(stored.last?.target ?? '');
  const [era, setEra] = useState(stored.last?.era ?? 'auto');
  const [extra, setExtra] = useState('');
  const [busy, setBusy] = useState(false);
  const [outcome, setOutcome] = useState<{ ok: boolean; text: string } | undefined>(undefined);
  const use = (s: SavedServer): void => {
    setKind(s.kind);
    setName(s.name);
    setTarget(s.target);
    setEra(s.era);
    setExtra('');
  };
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
    else {
      // Remembered once the inspector took it (even if the server is down right now).
      setStored(remember({ name, kind, target, era }));
      setOutcome({
        ok: a.server?.state === 'ready',
        text: `${name}: ${a.server?.state ?? '?'}${a.server?.lastError ? ` (${a.server.lastError})` : ''}`,
      });
    }
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
      {stored.saved.length > 0 && (
        <div class="saved" data-testid="saved-servers">
          <h3>
            Saved in this browser
            <span class="hint">name, transport, command or URL, era; never environment or headers</span>
          </h3>
          <ul>
            {stored.saved.map((s) => (
              <li data-saved={s.name}>
                <button type="button" class="small" data-testid="use-saved" onClick={() => use(s)}>
                  {s.name}
                </button>{' '}
                <code class="saved-target" title={s.target}>
                  {s.target}
                </code>{' '}
                <button
                  type="button"
                  class="small"
                  data-testid="forget-saved"
                  aria-label={`Forget ${s.name}`}
                  onClick={() => setStored(forget(s.name))}
                >
                  Forget
                </button>
              </li>
            ))}
          </ul>
          <button type="button" class="small" data-testid="forget-all" onClick={() => setStored(forget())}>
            Forget all
          </button>
        </div>
      )}
    </form>
  );
}

/** A timeout field's text as milliseconds: undefined when empty, NaN when out of range. */
function millis(text: string): number | undefined {
  if (text.trim() === '') return undefined;
  const n = Number(text);
  return Number.isInteger(n) && n >= TIMEOUT_MIN && n <= TIMEOUT_MAX ? n : NaN;
}

const show = (n: number | undefined): string => (n === undefined ? '' : String(n));

/** The page's settings: the request timeouts (the theme is in the header). */
export function SettingsCard() {
  const [value, setValue] = useState(show(settings.timeoutMs));
  const [reset, setReset] = useState(settings.resetOnProgress);
  const [total, setTotal] = useState(show(settings.maxTotalMs));
  const [note, setNote] = useState('');
  return (
    <form
      class="card"
      data-testid="settings"
      onSubmit={(e) => {
        e.preventDefault();
        const n = millis(value);
        const max = millis(total);
        if (Number.isNaN(n) || Number.isNaN(max)) {
          setNote(`A timeout is a whole number of milliseconds from ${TIMEOUT_MIN} to ${TIMEOUT_MAX}`);
          return;
        }
        updateSettings({ timeoutMs: n, resetOnProgress: reset, maxTotalMs: max });
        setNote(
          [
            n === undefined ? 'the servers’ own timeouts apply' : `requests time out after ${n} ms`,
            reset ? 'progress restarts the timeout' : '',
            max === undefined ? '' : `at most ${max} ms in all`,
          ]
            .filter(Boolean)
            .join('; '),
        );
      }}
    >
      <h2>Settings</h2>
      <label class="field">
        <span class="field-label">
          Request timeout (ms)<span class="hint">tool calls, reads and prompts; empty: the config’s</span>
        </span>
        <input
          type="number"
          min={TIMEOUT_MIN}
          data-testid="timeout"
          value={value}
          onInput={(e) => setValue((e.target as HTMLInputElement).value)}
        />
      </label>
      <label class="field check">
        <input
          type="checkbox"
          data-testid="reset-on-progress"
          checked={reset}
          onChange={(e) => setReset((e.target as HTMLInputElement).checked)}
        />
        <span class="field-label">
          Reset the timeout on progress<span class="hint">a call that reports progress is not cut off</span>
        </span>
      </label>
      <label class="field">
        <span class="field-label">
          Maximum total time (ms)<span class="hint">progress or not; empty: the client’s (10 minutes)</span>
        </span>
        <input
          type="number"
          min={TIMEOUT_MIN}
          data-testid="max-total-timeout"
          value={total}
          onInput={(e) => setTotal((e.target as HTMLInputElement).value)}
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
