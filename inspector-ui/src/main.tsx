// The inspector's page: a header with the screens, the questions servers ask, and the
// screen itself. Deep links (?tool=NAME&args=JSON&run=1) open a tool and run it.
import { render } from 'preact';
import { useState } from 'preact/hooks';
import { connect, useStore } from './store';
import { ServersScreen } from './servers';
import { ToolsScreen, presetTool } from './tools';
import { PromptsScreen, ResourcesScreen } from './resources';
import { Questions } from './questions';
import { LogsScreen, WireScreen } from './traffic';
import { TasksScreen, tasksFromWire } from './tasks';
import { PlaygroundScreen } from './playground';
import { LoadScreen } from './load';
import { LintScreen } from './lint';
import { TimelineScreen } from './timeline';
import { OAuthDebuggerScreen } from './oauth-debugger';
import { settings, updateSettings } from './settings';
import type { ThemeChoice } from './settings';
import './style.css';
import './a11y.css';

type Screen =
  | 'servers'
  | 'tools'
  | 'resources'
  | 'prompts'
  | 'tasks'
  | 'logs'
  | 'timeline'
  | 'wire'
  | 'load'
  | 'lint'
  | 'oauth'
  | 'playground';

interface DeepLink {
  tool: string;
  server: string | undefined;
  args: Record<string, unknown>;
  run: boolean;
  error?: string;
}

function readDeepLink(): DeepLink | undefined {
  const q = new URLSearchParams(location.search);
  const tool = q.get('tool');
  const out: DeepLink | undefined = tool
    ? { tool, server: q.get('server') ?? undefined, args: {}, run: q.get('run') === '1' }
    : undefined;
  if (out && q.has('args')) {
    try {
      const a: unknown = JSON.parse(q.get('args')!);
      if (typeof a === 'object' && a !== null && !Array.isArray(a)) out.args = a as Record<string, unknown>;
      else throw new Error('not an object');
    } catch (e) {
      out.error = `args is not a JSON object: ${(e as Error).message}`;
      out.run = false;
    }
  }
  // The token stays out of the address bar (and history); `run` so a reload does not run again.
  q.delete('token');
  q.delete('run');
  const rest = q.toString();
  history.replaceState(null, '', location.pathname + (rest ? `?${rest}` : ''));
  return out;
}

const link = readDeepLink();
let linkUsed = false;

function App() {
  const s = useStore();
  const [screen, setScreen] = useState<Screen>(link ? 'tools' : 'servers');
  const [tool, setTool] = useState<string | undefined>(undefined);
  const [open, setOpen] = useState<{ server: string; uri: string } | undefined>(undefined);
  const [, setTick] = useState(0);
  if (link && !linkUsed) {
    const t = s.catalog.tools.find((x) => x.name === link.tool && (!link.server || x.server === link.server));
    if (t) {
      linkUsed = true;
      presetTool(`${t.server}/${t.name}`, link.args, link.run);
      setTool(`${t.server}/${t.name}`);
    }
  }
  const tabs: Array<[Screen, string, number | undefined]> = [
    ['servers', 'Servers', s.servers.length],
    ['tools', 'Tools', s.catalog.tools.length],
    ['resources', 'Resources', s.catalog.resources.length],
    ['prompts', 'Prompts', s.catalog.prompts.length],
    ['tasks', 'Tasks', tasksFromWire(s.wire).length],
    ['logs', 'Logs & notifications', undefined],
    ['timeline', 'Timeline', undefined],
    ['wire', 'Wire', s.wire.length],
    ['playground', 'Playground', undefined],
    ['load', 'Load', undefined],
    ['lint', 'Lint', undefined],
    ['oauth', 'OAuth', undefined],
  ];
  const ready = s.servers.filter((x) => x.state === 'ready').length;
  return (
    <>
      <header>
        <span class="brand">mcpkit inspect</span>
        <nav>
          {tabs.map(([id, label, n]) => (
            <button
              class={screen === id ? 'on' : ''}
              data-screen={id}
              aria-current={screen === id ? 'page' : undefined}
              onClick={() => setScreen(id)}
            >
              {label}
              {n !== undefined && (
                <span class="count" data-testid={`count-${id}`}>
                  {n}
                </span>
              )}
              {/* Templates are not resources: counted apart, so 3 resources and 2 templates is not "5". */}
              {id === 'resources' && (
                <>
                  <span class="count-sep"> · </span>Templates
                  <span class="count" data-testid="count-templates">
                    {s.catalog.templates.length}
                  </span>
                </>
              )}
            </button>
          ))}
        </nav>
        <button
          class="small"
          data-testid="theme"
          title="colour theme: system, light or dark"
          onClick={() => {
            const order: ThemeChoice[] = ['system', 'light', 'dark'];
            updateSettings({ theme: order[(order.indexOf(settings.theme) + 1) % order.length]! });
            setTick((n) => n + 1);
          }}
        >
          theme: {settings.theme}
        </button>
        <span
          class={`conn ${s.connected ? 'up' : 'down'}`}
          data-testid="connection"
          title="the inspector's event stream"
        >
          {s.connected ? `${ready}/${s.servers.length} ready` : 'disconnected'}
        </span>
      </header>
      {link?.error && <div class="result error">{link.error}</div>}
      {link && !linkUsed && s.servers.some((x) => x.state === 'ready') && (
        <p class="muted">Waiting for tool {link.tool}…</p>
      )}
      {/* The playground shows the questions inside its chat. */}
      {screen !== 'playground' && <Questions />}
      <main>
        {screen === 'servers' && <ServersScreen />}
        {screen === 'tools' && (
          <ToolsScreen
            selected={tool}
            onSelect={setTool}
            onOpenLink={(server, uri) => {
              setOpen({ server, uri });
              setScreen('resources');
            }}
          />
        )}
        {screen === 'resources' && <ResourcesScreen open={open} />}
        {screen === 'prompts' && <PromptsScreen />}
        {screen === 'tasks' && <TasksScreen />}
        {screen === 'logs' && <LogsScreen />}
        {screen === 'timeline' && <TimelineScreen />}
        {screen === 'wire' && <WireScreen />}
        {screen === 'playground' && <PlaygroundScreen />}
        {screen === 'load' && <LoadScreen />}
        {screen === 'lint' && <LintScreen />}
        {screen === 'oauth' && <OAuthDebuggerScreen />}
      </main>
    </>
  );
}

connect();
render(<App />, document.getElementById('app')!);
