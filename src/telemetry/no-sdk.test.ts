import assert from 'node:assert/strict';
import { test } from 'node:test';
import { trace } from '@opentelemetry/api';
import { BasicTracerProvider } from '@opentelemetry/sdk-trace-base';
import { loadTelemetry } from './load.js';

// Its own file, so its own process: no other test has registered a global provider here.
test('telemetry: true with no SDK registered does no session span work, and sees an SDK registered later', async () => {
  const telemetry = await loadTelemetry(true);
  assert.equal(telemetry.recording(), false);
  assert.equal(telemetry.sessionObserver('client', undefined), undefined);
  // Given providers always record.
  const given = await loadTelemetry({ tracerProvider: new BasicTracerProvider(), metrics: false });
  assert.ok(given.sessionObserver('server', undefined));
  // An SDK registered after the telemetry was made (before a connect) is seen per session.
  trace.setGlobalTracerProvider(new BasicTracerProvider());
  assert.equal(telemetry.recording(), true);
  assert.ok(telemetry.sessionObserver('client', undefined));
});
