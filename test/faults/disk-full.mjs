#!/usr/bin/env node
// Disk full for the credential store and the audit log, on a real full file system: a
// 64 KiB tmpfs mounted for the run (needs root, as in CI containers; otherwise the run says
// so and stops). Checks that each write fails with a clear error and leaves no corrupt file.
//   node test/faults/disk-full.mjs
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import assert from 'node:assert/strict';
import { FileCredentialStore } from '../../dist/auth/node.js';
import { fileAudit } from '../../dist/host/node-files.js';

const dir = mkdtempSync(join(tmpdir(), 'mcpkit-diskfull-'));
try {
  execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=64k', 'tmpfs', dir], { stdio: 'pipe' });
} catch (e) {
  console.log(`disk-full: skipped, cannot mount a tmpfs here (${String(e.stderr ?? e.message).trim()})`);
  rmSync(dir, { recursive: true, force: true });
  process.exit(0);
}

/** Fills the file system, leaving about `leave` bytes. */
function fill(leave) {
  let n = 0;
  for (let size = 32 * 1024; size >= 64; size = Math.floor(size / 2)) {
    for (;;) {
      try {
        writeFileSync(join(dir, `fill-${n++}`), Buffer.alloc(size));
      } catch {
        break;
      }
    }
  }
  if (leave > 0) rmSync(join(dir, `fill-${n - 2}`), { force: true });
}

try {
  // Credential store: one record saved, then the disk fills, then a larger record.
  const path = join(dir, 'creds', 'credentials.json');
  const store = new FileCredentialStore(path);
  await store.set('https://as.example', { issuer: 'https://as.example', tokens: { access_token: 'a' } });
  const before = readFileSync(path, 'utf8');
  fill(0);
  let error;
  try {
    await store.set('https://as.example', {
      issuer: 'https://as.example',
      tokens: { access_token: 'b'.repeat(200_000) },
    });
  } catch (e) {
    error = e;
  }
  assert.ok(error, 'the save failed');
  assert.match(error.message, /Cannot save credentials to .*the disk is full \(the previous file is kept\)/);
  assert.equal(readFileSync(path, 'utf8'), before, 'the previous file is intact');
  console.log(`credential store: "${error.message.slice(0, 140)}…"; previous file intact`);

  // Audit log: append until the disk is full; every line in the file is whole JSON.
  for (const f of execFileSync('ls', [dir]).toString().split('\n')) {
    if (f.startsWith('fill-')) rmSync(join(dir, f));
  }
  fill(0);
  const logPath = join(dir, 'audit.jsonl');
  rmSync(logPath, { force: true });
  // Room for a few entries only.
  for (let i = 0; i < 3; i++) rmSync(join(dir, `fill-${i}`), { force: true });
  const sink = fileAudit(logPath);
  let auditError;
  let written = 0;
  for (let i = 0; i < 100_000 && !auditError; i++) {
    try {
      sink({
        time: new Date().toISOString(),
        kind: 'call',
        caller: 'soak',
        server: 's',
        target: 'x'.repeat(300 + (i % 7)),
        decision: 'allowed',
        outcome: 'ok',
      });
      written++;
    } catch (e) {
      auditError = e;
    }
  }
  assert.ok(auditError, 'the disk filled up');
  assert.match(auditError.message, /Cannot append to the audit log .*the disk is full/);
  const lines = readFileSync(logPath, 'utf8').split('\n');
  assert.equal(lines.pop(), '', 'the file ends with a whole line');
  for (const l of lines) JSON.parse(l);
  console.log(
    `audit log: ${written} entries, then "${auditError.message.slice(0, 120)}…"; ${lines.length} whole lines, no partial one`,
  );
} finally {
  execFileSync('umount', [dir]);
  rmSync(dir, { recursive: true, force: true });
}
