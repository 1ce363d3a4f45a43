// Tasks (the 2025-11-25 experimental tasks and the 2026-07-28 tasks extension): every
// task seen on the wire with its latest state, refreshed, listed or cancelled from here.
import { useState } from 'preact/hooks';
import { api } from './api';
import { Json } from './content';
import { useStore } from './store';
import type { WireEntry } from './store';

interface TaskRow {
  server: string;
  taskId: string;
  status: string;
  statusMessage?: string;
  createdAt?: string;
  lastUpdatedAt?: string;
  ttl?: unknown;
  seen: number;
}

const TERMINAL = new Set(['completed', 'failed', 'cancelled']);

function isTaskInfo(v: unknown): v is Record<string, unknown> & { taskId: string; status: string } {
  return (
    typeof v === 'object' &&
    v !== null &&
    typeof (v as { taskId?: unknown }).taskId === 'string' &&
    typeof (v as { status?: unknown }).status === 'string'
  );
}

/** Every task state the server sent: call results, tasks/get and tasks/list answers, status notifications. */
export function tasksFromWire(wire: readonly WireEntry[]): TaskRow[] {
  const rows = new Map<string, TaskRow>();
  const note = (
    server: string,
    t: Record<string, unknown> & { taskId: string; status: string },
    time: number,
  ) => {
    const key = `${server} ${t.taskId}`;
    const row: TaskRow = {
      ...(rows.get(key) ?? { seen: 0 }),
      server,
      taskId: t.taskId,
      status: t.status,
      seen: (rows.get(key)?.seen ?? 0) + 1,
    };
    if (typeof t.statusMessage === 'string') row.statusMessage = t.statusMessage;
    if (typeof t.createdAt === 'string') row.createdAt = t.createdAt;
    row.lastUpdatedAt = typeof t.lastUpdatedAt === 'string' ? t.lastUpdatedAt : new Date(time).toISOString();
    if ('ttl' in t) row.ttl = t.ttl;
    rows.set(key, row);
  };
  for (const w of wire) {
    if (w.dir !== 'in' || !w.message) continue;
    const m = w.message;
    const result = m.result as Record<string, unknown> | undefined;
    const params = m.params as Record<string, unknown> | undefined;
    if (result) {
      if (isTaskInfo(result.task)) note(w.server, result.task, w.time);
      if (isTaskInfo(result)) note(w.server, result, w.time);
      if (Array.isArray(result.tasks))
        for (const t of result.tasks) if (isTaskInfo(t)) note(w.server, t, w.time);
    }
    if (m.method === 'notifications/tasks/status' && isTaskInfo(params)) note(w.server, params, w.time);
  }
  return [...rows.values()];
}

export function TasksScreen() {
  const s = useStore();
  const [details, setDetails] = useState<Record<string, unknown>>({});
  const [errors, setErrors] = useState<Record<string, string>>({});
  const rows = tasksFromWire(s.wire);
  const act = async (key: string, op: string, body: Record<string, unknown>): Promise<void> => {
    const a = await api<{ result?: unknown }>(op, body);
    if (a.error) setErrors({ ...errors, [key]: a.error.message });
    else {
      setErrors({ ...errors, [key]: '' });
      if (a.result !== undefined) setDetails({ ...details, [key]: a.result });
    }
  };
  return (
    <div class="panel">
      <div class="bar">
        {s.servers
          .filter((x) => x.state === 'ready')
          .map((x) => (
            <button
              data-testid="tasks-list"
              onClick={() => void act(`list ${x.name}`, 'tasks-list', { server: x.name })}
            >
              List tasks on {x.name}
            </button>
          ))}
        {Object.entries(errors)
          .filter(([k, v]) => k.startsWith('list ') && v)
          .map(([, v]) => (
            <span class="tag bad">{v}</span>
          ))}
      </div>
      <table class="rows" data-testid="task-rows">
        <tbody>
          {rows.map((t) => {
            const key = `${t.server} ${t.taskId}`;
            return (
              <>
                <tr data-task={t.taskId} data-status={t.status}>
                  <td>{t.server}</td>
                  <td>
                    <code>{t.taskId}</code>
                  </td>
                  <td>
                    <span
                      class={`tag ${t.status === 'failed' ? 'bad' : TERMINAL.has(t.status) ? '' : 'busy'}`}
                    >
                      {t.status}
                    </span>
                  </td>
                  <td class="text">{t.statusMessage ?? ''}</td>
                  <td class="time">
                    {t.lastUpdatedAt ? new Date(t.lastUpdatedAt).toLocaleTimeString() : ''}
                  </td>
                  <td>
                    <button
                      class="small"
                      onClick={() => void act(key, 'task-get', { server: t.server, taskId: t.taskId })}
                    >
                      Refresh
                    </button>{' '}
                    {!TERMINAL.has(t.status) && (
                      <button
                        class="small"
                        data-cancel={t.taskId}
                        onClick={() => void act(key, 'task-cancel', { server: t.server, taskId: t.taskId })}
                      >
                        Cancel
                      </button>
                    )}
                    {errors[key] && <span class="tag bad">{errors[key]}</span>}
                  </td>
                </tr>
                {details[key] !== undefined && (
                  <tr class="expanded">
                    <td colSpan={6}>
                      <Json value={details[key]} />
                    </td>
                  </tr>
                )}
              </>
            );
          })}
        </tbody>
      </table>
      {rows.length === 0 && <p class="muted">No tasks yet. A tool that runs as a task shows up here.</p>}
    </div>
  );
}
