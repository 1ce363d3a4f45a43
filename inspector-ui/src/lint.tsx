// The Lint view: `mcpkit lint` per connected server. Portability of each tool to the host
// families (OpenAI, Gemini, Claude, Cursor), readiness (descriptions, annotations, schemas,
// pagination), and the Server Card or server.json when the server has one; by severity.
import { useState } from 'preact/hooks';
import { api } from './api';
import { changed, useStore } from './store';

interface Finding {
  severity: 'error' | 'warning' | 'info';
  rule: string;
  subject: string;
  message: string;
}

interface Outcome {
  findings?: Finding[];
  summary?: {
    tools: number;
    resources: number;
    templates: number;
    prompts: number;
    errors: number;
    warnings: number;
    infos: number;
  };
  checked?: string[];
  error?: string;
  running?: boolean;
}

const HOSTS = ['claude', 'openai', 'gemini', 'cursor'] as const;
/** Results by server, kept across screen changes. */
const results = new Map<string, Outcome>();

async function lint(server: string, hosts: readonly string[], probe: boolean): Promise<void> {
  results.set(server, { ...results.get(server), running: true });
  changed();
  const answer = await api<Outcome>('lint', { server, hosts, probe });
  results.set(server, answer.error ? { error: answer.error.message } : { ...answer, running: false });
  changed();
}

function ServerFindings({ server, outcome }: { server: string; outcome: Outcome | undefined }) {
  const [shown, setShown] = useState<'all' | 'error' | 'warning'>('all');
  const list = (outcome?.findings ?? []).filter((f) => shown === 'all' || f.severity === shown);
  const s = outcome?.summary;
  return (
    <section class="lint-server" data-testid="lint-server" data-server={server}>
      <h2>
        {server} {outcome?.running && <span class="tag busy">checking…</span>}
        {s && (
          <span class="lint-counts" data-testid="lint-counts">
            <span class="tag bad">{s.errors} errors</span> <span class="tag warn">{s.warnings} warnings</span>{' '}
            <span class="tag">{s.infos} infos</span>
          </span>
        )}
      </h2>
      {!outcome && <p class="muted">Not checked yet.</p>}
      {outcome?.error && (
        <div class="result error" data-testid="lint-error">
          {outcome.error}
        </div>
      )}
      {s && (
        <p class="muted">
          {s.tools} tools, {s.resources} resources, {s.templates} templates, {s.prompts} prompts
          {outcome?.checked?.length ? `; also checked ${outcome.checked.join(', ')}` : ''}
          {' · '}
          {(['all', 'error', 'warning'] as const).map((k) => (
            <button type="button" class={`small${shown === k ? ' on' : ''}`} onClick={() => setShown(k)}>
              {k === 'all' ? 'all' : `${k}s only`}
            </button>
          ))}
        </p>
      )}
      {list.length > 0 && (
        <table class="lint-findings">
          <thead>
            <tr>
              <th>severity</th>
              <th>subject</th>
              <th>rule</th>
              <th>finding</th>
            </tr>
          </thead>
          <tbody>
            {list.map((f) => (
              <tr
                class={`sev-${f.severity}`}
                data-testid="lint-finding"
                data-severity={f.severity}
                data-rule={f.rule}
              >
                <td>
                  <span
                    class={`tag ${f.severity === 'error' ? 'bad' : f.severity === 'warning' ? 'warn' : ''}`}
                  >
                    {f.severity}
                  </span>
                </td>
                <td>
                  <code>{f.subject}</code>
                </td>
                <td>
                  <code class="muted">{f.rule}</code>
                </td>
                <td>{f.message}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}

export function LintScreen() {
  const s = useStore();
  const [hosts, setHosts] = useState<string[]>([...HOSTS]);
  const [probe, setProbe] = useState(false);
  const ready = s.servers.filter((x) => x.state === 'ready').map((x) => x.name);
  return (
    <div class="lint" data-testid="lint-screen">
      <form
        class="lint-options row"
        onSubmit={(e) => {
          e.preventDefault();
          for (const server of ready) void lint(server, hosts, probe);
        }}
      >
        <fieldset>
          <legend>Host families</legend>
          {HOSTS.map((h) => (
            <label>
              <input
                type="checkbox"
                checked={hosts.includes(h)}
                onChange={(e) =>
                  setHosts(
                    (e.target as HTMLInputElement).checked ? [...hosts, h] : hosts.filter((x) => x !== h),
                  )
                }
              />{' '}
              {h}{' '}
            </label>
          ))}
        </fieldset>
        <label title="call each read-only tool that needs no arguments, once">
          <input
            type="checkbox"
            checked={probe}
            onChange={(e) => setProbe((e.target as HTMLInputElement).checked)}
          />{' '}
          probe read-only tools
        </label>
        <button type="submit" class="primary" data-testid="lint-run" disabled={ready.length === 0}>
          Check {ready.length === 1 ? ready[0] : `${ready.length} servers`}
        </button>
      </form>
      {ready.map((server) => (
        <ServerFindings key={server} server={server} outcome={results.get(server)} />
      ))}
      {ready.length === 0 && <p class="muted">No server is ready.</p>}
    </div>
  );
}
