/**
 * Test-only support: the vendored schemas of documents that are not JSON-RPC messages — the
 * Server Card (`test/fixtures/ext-server-card/schema.json`, SEP-2127) and the MCP Registry's
 * `server.json` (`test/fixtures/registry/<revision>/server.schema.json`) — compiled once with
 * Ajv (formats on), and a check that lists every problem by JSON pointer.
 *
 * Not part of the public API: nothing outside tests should import this module.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Ajv, type ValidateFunction } from 'ajv';
import { Ajv2020 } from 'ajv/dist/2020.js';
import ajvFormats from 'ajv-formats';
import { schemaFixtureDir } from './schema-revisions.js';

const fixtures = (): string => join(schemaFixtureDir(), '..');

/** A vendored fixture file's text, by its path under `test/fixtures`. */
export function fixtureText(...path: string[]): string {
  return readFileSync(join(fixtures(), ...path), 'utf8');
}

let card: ValidateFunction | undefined;
let serverJson: ValidateFunction | undefined;

function problems(validate: ValidateFunction, doc: unknown): string[] {
  if (validate(doc)) return [];
  return (validate.errors ?? []).map((e) => `${e.instancePath || '/'} ${e.message ?? e.keyword}`);
}

/** Problems of `doc` as a Server Card (empty when valid). */
export function serverCardProblems(doc: unknown): string[] {
  if (card === undefined) {
    const ajv = new Ajv2020({ strict: false, allErrors: true });
    ajvFormats.default(ajv);
    const schema = JSON.parse(fixtureText('ext-server-card', 'schema.json')) as Record<string, unknown>;
    ajv.addSchema(schema, 'server-card');
    card = ajv.getSchema('server-card#/$defs/ServerCard');
    if (card === undefined) throw new Error('card-schemas: no ServerCard definition');
  }
  return problems(card, doc);
}

/** Problems of `doc` as a registry `server.json` (2025-12-11; empty when valid). */
export function serverJsonProblems(doc: unknown): string[] {
  if (serverJson === undefined) {
    const ajv = new Ajv({ strict: false, allErrors: true });
    ajvFormats.default(ajv);
    serverJson = ajv.compile(
      JSON.parse(fixtureText('registry', '2025-12-11', 'server.schema.json')) as Record<string, unknown>,
    );
  }
  return problems(serverJson, doc);
}
