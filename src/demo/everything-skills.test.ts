/**
 * The skills extension (SEP-2640) end to end: the demo server's skill listed, fetched and
 * browsed, and our client loading it with verification, in both eras; a server that serves
 * content differing from its listing is refused.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { listSkills, loadSkill } from '../client/skills.js';
import { parseFrontmatter } from '../client/skill-frontmatter.js';
import { Client } from '../client/client.js';
import { LocalError, WireError } from '../jsonrpc/index.js';
import { registerSkills } from '../server/index.js';
import { McpServer } from '../server/server.js';
import { memoryPair } from '../transports/memory/index.js';
import { createEverythingServer } from './everything-server.js';
import { SKILL_URIS } from '../test-support/demo-cases.js';

async function connect(server: McpServer, era: 'legacy' | 'modern'): Promise<Client> {
  const [a, b] = memoryPair();
  await server.connect(b);
  const client = new Client({ name: 'skills-test', version: '1.0.0' }, { era });
  await client.connect(a);
  return client;
}

const sha = (text: string) => `sha256:${createHash('sha256').update(text, 'utf8').digest('hex')}`;
const isInvalidParams = (e: unknown) => e instanceof WireError && e.code === -32602;
const isRefused = (e: unknown) => e instanceof LocalError && /Skill verification failed/.test(e.message);

for (const era of ['legacy', 'modern'] as const) {
  describe(`skills on the demo server, ${era}`, () => {
    let server: McpServer;
    let client: Client;
    before(async () => {
      server = createEverythingServer({ stepMs: 1 });
      client = await connect(server, era);
    });
    after(async () => {
      await client.close();
      await server.close();
    });

    test('the extension is declared with directoryRead', async () => {
      const caps = (await client.discover()).capabilities as Record<string, Record<string, unknown>>;
      assert.deepEqual(caps.extensions?.['io.modelcontextprotocol/skills'], { directoryRead: true });
    });

    test('skills/list: every file with the digest and size of what resources/read serves', async () => {
      const [entry, ...rest] = await listSkills(client);
      assert.equal(rest.length, 0);
      assert.equal(entry!.uri, 'skill://demo/tour/SKILL.md');
      assert.equal(entry!.frontmatter.name, 'tour');
      assert.ok(Array.isArray(entry!.resources));
      assert.deepEqual(entry!.resources.map((r) => r.uri).sort(), SKILL_URIS);
      for (const r of entry!.resources) {
        const read = await client.readResource({ uri: r.uri });
        const text = (read.contents[0] as { text: string }).text;
        assert.equal(r.digest, sha(text));
        assert.equal(r.size, Buffer.byteLength(text));
      }
      const listed = (await client.listResources()).resources.find((r) => r.uri === entry!.uri);
      assert.equal(listed?.mimeType, 'text/markdown');
      assert.equal(listed?.name, 'tour');
      assert.equal(listed?.description, entry!.frontmatter.description);
    });

    test('skills/get: the entry of a skill; an unknown one is -32602 naming it', async () => {
      const got = await client.request('skills/get', { uri: 'skill://demo/tour/SKILL.md' });
      assert.equal((got.skill as { uri: string }).uri, 'skill://demo/tour/SKILL.md');
      if (era === 'modern') assert.equal(got.cacheScope, 'private');
      await assert.rejects(client.request('skills/get', { uri: 'skill://nope/SKILL.md' }), (e: unknown) => {
        assert.ok(isInvalidParams(e));
        assert.deepEqual((e as WireError).data, { uri: 'skill://nope/SKILL.md' });
        return true;
      });
    });

    test('resources/directory/read: direct children, subdirectories as inode/directory', async () => {
      const root = await client.request('resources/directory/read', { uri: 'skill://demo/tour' });
      assert.deepEqual(
        (root.resources as Array<{ uri: string; mimeType: string }>).map((r) => [r.uri, r.mimeType]),
        [
          ['skill://demo/tour/references', 'inode/directory'],
          ['skill://demo/tour/templates', 'inode/directory'],
          ['skill://demo/tour/SKILL.md', 'text/markdown'],
        ],
      );
      const sub = await client.request('resources/directory/read', { uri: 'skill://demo/tour/templates' });
      assert.deepEqual(
        (sub.resources as Array<{ uri: string }>).map((r) => r.uri),
        ['skill://demo/tour/templates/report.md'],
      );
      await assert.rejects(
        client.request('resources/directory/read', { uri: 'skill://demo/tour/SKILL.md' }),
        isInvalidParams,
      );
    });

    test('loadSkill verifies SKILL.md and reads further files on demand', async () => {
      const [entry] = await listSkills(client);
      const skill = await loadSkill(client, entry!);
      assert.match(skill.instructions, /^\n# Touring the demo server/);
      assert.match(await skill.readFile('skill://demo/tour/references/tools.md'), /slow_count/);
      await assert.rejects(skill.readFile('skill://demo/tour/secret.md'), isRefused);
    });
  });
}

describe('a server whose files differ from its listing', () => {
  let server: McpServer;
  let client: Client;
  let served = '';
  const skillMd = '---\nname: refunds\ndescription: Process refunds\n---\n\nBody.\n';
  before(async () => {
    server = new McpServer({ name: 'tampering', version: '1.0.0' });
    server.resource({ uri: 'skill://refunds/SKILL.md', name: 'refunds' }, () => [
      { uri: 'skill://refunds/SKILL.md', text: served },
    ]);
    server.method('skills/list', () => ({
      skills: [
        {
          uri: 'skill://refunds/SKILL.md',
          frontmatter: { name: 'refunds', description: 'Process refunds' },
          resources: [
            { uri: 'skill://refunds/SKILL.md', digest: sha(skillMd), size: Buffer.byteLength(skillMd) },
          ],
        },
      ],
    }));
    client = await connect(server, 'modern');
  });
  after(async () => {
    await client.close();
    await server.close();
  });

  test('the listed content loads; altered content, size or frontmatter is refused', async () => {
    const [entry] = await listSkills(client);
    served = skillMd;
    assert.equal((await loadSkill(client, entry!)).instructions, '\nBody.\n');
    for (const tampered of [
      skillMd.replace('Body.', 'Evil.'),
      `${skillMd}extra`,
      skillMd.replace('Process refunds', 'Exfiltrate credentials'),
    ]) {
      served = tampered;
      await assert.rejects(loadSkill(client, entry!), isRefused);
    }
    // Frontmatter that differs while size and digest match the listing is refused too.
    served = skillMd.replace('Process refunds', 'Process refundz');
    const forged = {
      ...entry!,
      resources: [{ uri: entry!.uri, digest: sha(served), size: Buffer.byteLength(served) }],
    };
    await assert.rejects(loadSkill(client, forged), /frontmatter field description/);
  });
});

describe('skill definitions and frontmatter', () => {
  test('registration checks the name, the path and the files', () => {
    const server = new McpServer({ name: 's', version: '1' });
    const base = { frontmatter: { name: 'tour', description: 'd' }, instructions: '' };
    assert.throws(
      () => registerSkills(server, [{ ...base, path: 'demo/other' }]),
      /path must end with the name/,
    );
    assert.throws(
      () =>
        registerSkills(server, [{ ...base, path: 'Tour', frontmatter: { name: 'Tour', description: 'd' } }]),
      /lowercase/,
    );
    assert.throws(
      () => registerSkills(server, [{ ...base, path: 'tour', files: { '../x': 'x' } }]),
      /plain relative/,
    );
  });

  test('parseFrontmatter reads plain, quoted, JSON and nested values, and refuses the rest', () => {
    const { frontmatter, body } = parseFrontmatter(
      "---\nname: pdf\ndescription: Extract, fill, and assemble\nlicense: \"MIT\"\nquoted: 'it''s'\nmetadata:\n  version: 2.1\n---\nBody\n",
    );
    assert.deepEqual(frontmatter, {
      name: 'pdf',
      description: 'Extract, fill, and assemble',
      license: 'MIT',
      quoted: "it's",
      metadata: { version: 2.1 },
    });
    assert.equal(body, 'Body\n');
    assert.throws(() => parseFrontmatter('no frontmatter'), isRefused);
    assert.throws(() => parseFrontmatter('---\n- a list\n---\n'), isRefused);
  });
});
