import { readFile } from 'node:fs/promises';
import { parseRecording, RecordingError, replaySteps } from '../../inspector/recording.js';
import type { Recording } from '../../inspector/recording.js';
import { recordedHandlers, replayRecording } from '../../inspector/replay.js';
import type { Outcome, ReplayStepReport } from '../../inspector/replay.js';
import { openClient, parseCommand, TARGET_HELP } from '../connection.js';
import { CliFailure, ExitCode } from '../exit-codes.js';
import { palette } from '../format.js';

export const replayHelp = `Usage: mcpkit replay FILE [--from NAME] <target>

Sends the client requests of a recording (from \`mcpkit inspect --record FILE\` or the
inspector's "Download recording") to the target, one after another in the recorded order,
and shows for each what differs from the recording: the result's differences, an error
where there was a result (or the reverse, or another error code), and the time it took
against the recorded time. The server's questions (sampling, elicitation, roots) get the
answers that were recorded for them. The session's own requests (initialize,
server/discover) are not sent: the client connects anew. Exit code 1 when anything differs.

Options:
  --from NAME   the recorded server whose requests to send (needed when the recording
                has several)

With --json: {file, from, steps: [{index, method, target, verdict, recorded, now,
recordedMs, nowMs, ratio, differences}], same, changed, outcome}.

${TARGET_HELP}

Examples:
  mcpkit replay session.jsonl -- node build/server.js
  mcpkit replay session.jsonl --from weather --url http://127.0.0.1:3000/mcp --json`;

function outcomeText(o: Outcome): string {
  if (o.kind === 'error') return `error${o.code !== undefined ? ` ${o.code}` : ''}`;
  return o.kind === 'tool-error' ? 'isError' : 'result';
}

function short(v: unknown): string {
  const t = JSON.stringify(v) ?? 'undefined';
  return t.length > 60 ? `${t.slice(0, 57)}...` : t;
}

function chooseServer(recording: Recording, from: string | undefined): string {
  const names = [...new Set(replaySteps(recording).map((s) => s.server))];
  if (from !== undefined) {
    if (!recording.servers.has(from) && !names.includes(from))
      throw new CliFailure(
        `The recording has no server "${from}" (it has: ${[...recording.servers.keys()].join(', ') || 'none'})`,
        ExitCode.Usage,
      );
    return from;
  }
  if (names.length > 1)
    throw new CliFailure(
      `The recording has requests to several servers (${names.join(', ')}): choose one with --from NAME`,
      ExitCode.Usage,
    );
  return names[0] ?? [...recording.servers.keys()][0] ?? '';
}

export async function replay(argv: string[]): Promise<number> {
  const { global, values, positionals, help } = parseCommand(
    argv,
    { from: { type: 'string' } },
    'mcpkit replay FILE <target>',
  );
  if (help) {
    console.log(replayHelp);
    return ExitCode.Ok;
  }
  const file = positionals[0];
  if (file === undefined)
    throw new CliFailure('Which recording? mcpkit replay FILE <target>', ExitCode.Usage);
  if (positionals.length > 1)
    throw new CliFailure(`One recording at a time, not ${positionals.length}`, ExitCode.Usage);
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (e) {
    throw new CliFailure(`Cannot read ${file}: ${(e as Error).message}`, ExitCode.Usage);
  }
  let recording: Recording;
  try {
    recording = parseRecording(text);
  } catch (e) {
    if (e instanceof RecordingError) throw new CliFailure(`${file}: ${e.message}`, ExitCode.Usage);
    throw e;
  }
  for (const w of recording.warnings) process.stderr.write(`mcpkit: warning: ${file}: ${w}\n`);
  const from = chooseServer(recording, values.from as string | undefined);
  const p = palette(process.stdout);
  // The recorded era unless --era says otherwise: a legacy session replayed in the modern
  // era would differ in every answer's envelope.
  const recordedEra = recording.servers.get(from)?.era;
  const era =
    global.era === 'auto' && (recordedEra === 'legacy' || recordedEra === 'modern')
      ? recordedEra
      : global.era;
  const client = await openClient({ ...global, era }, recordedHandlers(recording, from));
  const stop = new AbortController();
  const onSigint = (): void => stop.abort();
  process.on('SIGINT', onSigint);
  try {
    const was = recording.servers.get(from)?.serverInfo;
    const is = client.serverInfo;
    if (!global.json)
      console.log(
        p.dim(
          `Replaying ${file} (${from}${was ? `: ${was.name} ${was.version}` : ''}) against ${is ? `${is.name} ${is.version}` : 'the target'}, ${era} era`,
        ),
      );
    const line = (s: ReplayStepReport): void => {
      if (global.json) return;
      const mark =
        s.verdict === 'same'
          ? p.green('same   ')
          : s.verdict === 'changed'
            ? p.yellow('changed')
            : p.red('outcome');
      const time =
        s.recordedMs !== undefined
          ? `${s.recordedMs} → ${s.nowMs} ms${s.ratio !== undefined ? ` (×${s.ratio})` : ''}`
          : `${s.nowMs} ms`;
      const what = `${s.method}${s.target !== undefined ? ` ${s.target}` : ''}`;
      const outcome = s.verdict === 'outcome' ? `  ${outcomeText(s.recorded)} → ${outcomeText(s.now)}` : '';
      console.log(`${String(s.index).padStart(3)}  ${mark}  ${what}  ${p.dim(time)}${outcome}`);
      for (const d of s.differences.slice(0, 5))
        console.log(
          `       ${d.kind} ${d.path}: ${d.kind === 'added' ? short(d.after) : d.kind === 'removed' ? short(d.before) : `${short(d.before)} → ${short(d.after)}`}`,
        );
      if (s.differences.length > 5) console.log(p.dim(`       and ${s.differences.length - 5} more`));
    };
    const report = await replayRecording(recording, client, {
      server: from,
      signal: stop.signal,
      onstep: line,
    });
    if (global.json) console.log(JSON.stringify({ file, from, ...report }, null, 2));
    else
      console.log(
        `${report.steps.length} request(s): ${report.same} same, ${report.changed} changed, ${report.outcome} with another outcome` +
          (report.unanswered ? `; ${report.unanswered} left out (no recorded answer)` : ''),
      );
    return report.changed + report.outcome > 0 ? ExitCode.ToolError : ExitCode.Ok;
  } catch (e) {
    if (stop.signal.aborted) throw new CliFailure('Interrupted', ExitCode.ToolError);
    throw e;
  } finally {
    process.off('SIGINT', onSigint);
    await client.close();
  }
}
