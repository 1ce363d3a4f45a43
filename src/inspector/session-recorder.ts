/**
 * Writes an inspector session to a recording file as it happens (`mcpkit inspect
 * --record FILE`): the header first, then each message whole (the page's history keeps
 * a summary of a message over 512 KB; the file keeps it all) and a `server` line as each
 * server connects. See recording.ts for the format.
 */
import type { InspectorHost, InspectorSnapshot, ServerView, WireEntry } from './inspector-host.js';
import { packageVersion } from './package-root.js';
import { messageLine, recordingHeader, serverLine } from './recording.js';
import type { RecordedServer } from './recording.js';

/** Where the lines go: a file stream (the CLI opens it), or anything with the same two calls. */
export interface LineSink {
  write(text: string): unknown;
  end(done: () => void): unknown;
}

function recorded(target: InspectorSnapshot['targets'][number], h: ServerView | undefined): RecordedServer {
  return {
    name: target.name,
    transport: target.transport,
    target: target.target,
    ...(h?.serverInfo ? { serverInfo: h.serverInfo } : {}),
    ...(h?.protocolVersion ? { protocolVersion: h.protocolVersion } : {}),
    ...(h?.era ? { era: h.era } : {}),
  };
}

/** The session's history as a recording (the page's "Download recording"). */
export function snapshotRecording(snapshot: InspectorSnapshot): string {
  const health = new Map(snapshot.servers.map((s) => [s.name, s]));
  const lines = [
    recordingHeader(
      packageVersion(),
      snapshot.targets.map((t) => recorded(t, health.get(t.name))),
    ),
  ];
  for (const e of snapshot.wire) lines.push(messageLine(e));
  return lines.join('\n') + '\n';
}

export class SessionRecorder {
  private readonly announced = new Set<string>();
  /** Set when the sink failed (a full disk): nothing more is written. */
  failed = false;

  /** Writes the header for `targets` to `out`. */
  constructor(
    private readonly out: LineSink,
    targets: InspectorSnapshot['targets'],
  ) {
    this.out.write(
      recordingHeader(
        packageVersion(),
        targets.map((t) => recorded(t, undefined)),
      ) + '\n',
    );
  }

  message(entry: WireEntry): void {
    if (!this.failed) this.out.write(messageLine(entry) + '\n');
  }

  /** Writes a `server` line each time a server becomes ready (again: a restart may be another build). */
  watch(session: InspectorHost): () => void {
    return session.subscribe((e) => {
      if (e.type !== 'health') return;
      const h = e.health;
      if (h.state !== 'ready') {
        this.announced.delete(h.name);
        return;
      }
      if (this.announced.has(h.name) || this.failed) return;
      this.announced.add(h.name);
      this.out.write(
        serverLine({
          name: h.name,
          ...(h.serverInfo ? { serverInfo: h.serverInfo } : {}),
          ...(h.protocolVersion ? { protocolVersion: h.protocolVersion } : {}),
          ...(h.era ? { era: h.era } : {}),
        }) + '\n',
      );
    });
  }

  /** Flushes and closes the file. */
  close(): Promise<void> {
    return new Promise((resolve) => this.out.end(() => resolve()));
  }
}
