// @weft-test: postgres (pull, push and labels read and write the server's objects)
// `weft prompts pull | diff | push | label | labels` against a real server: pull, edit, diff, push round trip with
// the file's digest equal to the server's, files that keep odd text exactly, and labels moved from the command line.
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { Client, getPrompt, publishPrompt, readPromptLabels } from 'weft-trace';
import { uniqueProject } from 'weft-test-kit/calls.js';
import { useTestServer } from 'weft-test-kit/server.js';
import { spawnCli } from 'weft-test-kit/child-processes.js';
import { promptsCommand } from '../../src/cli/prompts-commands.js';
import { parsePromptFile, promptFileText } from '../../src/cli/prompts-files.js';
import { planPush, pullPrompts, pushPrompts } from '../../src/cli/prompts-sync.js';
import { type PromptDefinition, promptValue } from 'weft-trace/client';
import { objectDigest } from '../../src/server/objects/object-digest.js';

const server = useTestServer();
let client: Client;
let dir: string;
beforeAll(async () => {
  client = new Client({ baseUrl: server().url, maxRetries: 0 });
  dir = await mkdtemp(path.join(tmpdir(), 'weft-prompts-'));
});
afterAll(async () => {
  await client.close();
  await rm(dir, { recursive: true, force: true });
});

const GREET = { name: 'greet', model: 'gpt-4o-mini', params: { temperature: 0.2 }, messages: [{ role: 'system', content: 'You are {{tone}}.\n\nBe brief.' }, { role: 'user', content: 'Hello {{name}}' }] };

/** Runs `weft prompts <args>` in this process; what it wrote on stdout. */
async function cli(args: string[]): Promise<string> {
  let out = '';
  const spy = vi.spyOn(process.stdout, 'write').mockImplementation((c: string | Uint8Array) => ((out += String(c)), true));
  const err = vi.spyOn(process.stderr, 'write').mockImplementation(() => true);
  try {
    const conn = args[0] === 'bundle' ? [] : ['--base-url', server().url];
    await promptsCommand().exitOverride().parseAsync([...args, ...conn], { from: 'user' });
  } finally {
    spy.mockRestore();
    err.mockRestore();
  }
  return out;
}

/** Runs the built `weft` (dist/cli.js) to its end. */
function built(args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const child = spawnCli(args, { stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, NO_COLOR: '1' } });
  let stdout = '';
  let stderr = '';
  child.stdout!.on('data', (c: Buffer) => (stdout += c.toString()));
  child.stderr!.on('data', (c: Buffer) => (stderr += c.toString()));
  return new Promise((resolve) => child.once('close', (code) => resolve({ code, stdout, stderr })));
}

describe('prompts as files', () => {
  it('pull, edit, diff, push: the file and the server agree on digests', async () => {
    const project = uniqueProject('prompt-files');
    const greet = await publishPrompt(GREET, { client, project });
    const summ = await publishPrompt({ name: 'summ', template: 'Summarize:\n{{text}}', description: 'one paragraph' }, { client, project });
    const pulled = await pullPrompts(client, project, dir);
    expect(pulled.map((p) => [p.name, p.digest])).toEqual([['greet', greet.version!.digest], ['summ', summ.version!.digest]]);
    const greetFile = path.join(dir, 'greet.prompt.md');
    expect(await readFile(greetFile, 'utf8')).toBe('---\nname: greet\nmodel: gpt-4o-mini\nparams:\n  temperature: 0.2\n---\n\n## system\n\nYou are {{tone}}.\n\nBe brief.\n\n## user\n\nHello {{name}}\n');
    const unchanged = await planPush(client, project, dir);
    expect(unchanged.map((p) => [p.status, p.digest])).toEqual([['same', greet.version!.digest], ['same', summ.version!.digest]]);

    await writeFile(greetFile, (await readFile(greetFile, 'utf8')).replace('temperature: 0.2', 'temperature: 0.5').replace('Hello {{name}}', 'Hi {{name}}, welcome'));
    await writeFile(path.join(dir, 'fresh.prompt.md'), '---\nname: fresh\n---\n\n## user\n\nNew {{thing}}\n');
    const diff = await cli(['diff', '--project', project, '--dir', dir]);
    expect(diff).toContain('-  temperature: 0.2\n+  temperature: 0.5');
    expect(diff).toContain('-Hello {{name}}\n+Hi {{name}}, welcome');
    expect(diff).toContain('+## user\n+\n+New {{thing}}');
    const plan = await planPush(client, project, dir);
    expect(plan.map((p) => [p.name, p.status])).toEqual([['fresh', 'new'], ['greet', 'changed'], ['summ', 'same']]);

    const pushed = await cli(['push', '--project', project, '--dir', dir]);
    expect(pushed.trim().split('\n').sort()).toEqual([`fresh  ${plan[0]!.digest}`, `greet  ${plan[1]!.digest}`]);
    const latest = await getPrompt('greet', { client, project, ttlMs: 0 });
    expect(latest.version).toMatchObject({ digest: plan[1]!.digest, index: 1 });
    expect(latest.format({ tone: 'kind', name: 'Ada' })[1]).toEqual({ role: 'user', content: 'Hi Ada, welcome' });
    expect((await planPush(client, project, dir)).every((p) => p.status === 'same')).toBe(true);
    expect(await pushPrompts(client, project, await planPush(client, project, dir))).toEqual(new Map());
    // back to the first version's text: the server holds it already (a version is its content), so push leaves it
    await writeFile(greetFile, promptFileText(greet.value));
    const reverted = await planPush(client, project, dir);
    expect(reverted.find((p) => p.name === 'greet')).toMatchObject({ status: 'earlier', earlier: 0, digest: greet.version!.digest });
    expect(await cli(['push', '--project', project, '--dir', dir])).toBe('');
    await writeFile(greetFile, (await readFile(greetFile, 'utf8')).replace('temperature: 0.2', 'temperature: 0.5').replace('Hello {{name}}', 'Hi {{name}}, welcome'));
    const bundleFile = path.join(dir, 'bundle.json');
    await cli(['bundle', '--dir', dir, '-o', bundleFile]);
    const bundle = JSON.parse(await readFile(bundleFile, 'utf8')) as Record<string, PromptDefinition>;
    expect(Object.keys(bundle)).toEqual(['fresh', 'greet', 'summ']);
    expect(objectDigest(promptValue(bundle['greet']!))).toBe(plan[1]!.digest);
  });

  it('keeps text the sections cannot hold exactly (in the front matter), so digests still agree', () => {
    const odd = [
      { name: 'a', messages: [{ role: 'user', content: '  leading space' }] },
      { name: 'b', messages: [{ role: 'user', content: 'x\n## assistant\ny' }] },
      { name: 'c', messages: [{ role: 'tool', content: 'r', tool_call_id: 't1' }], tools: [{ type: 'function', function: { name: 'f' } }], response_format: { type: 'json_object' } },
      { name: 'd', template: '\ntrailing\n\n' },
      { name: 'e', messages: [] },
      { name: 'f', template: 'ünïcode {{v}} — ok', model: 'm', params: { n: 1, stop: ['\n'] } },
    ];
    for (const def of odd) {
      const value = promptValue(def);
      expect(promptValue(parsePromptFile(promptFileText(value), `${def.name}.prompt.md`))).toEqual(value);
    }
    expect(() => parsePromptFile('no front matter', 'x.prompt.md')).toThrow(/x.prompt.md: expected YAML front matter/);
    expect(() => parsePromptFile('---\nname: x\n---\nstray\n## user\nhi', 'x.prompt.md')).toThrow(/text before the first/);
    expect(() => parsePromptFile('---\nname: x/y\n---\n## user\nhi', 'x.prompt.md')).toThrow(/x.prompt.md: prompt name/);
  });

  it('labels move from the command line, each move listed', async () => {
    const project = uniqueProject('prompt-label-cli');
    const v0 = await publishPrompt(GREET, { client, project });
    const v1 = await publishPrompt({ ...GREET, model: 'gpt-4o' }, { client, project });
    expect(await cli(['label', 'greet', 'production', 'v0', '--by', 'ci', '--project', project])).toBe(`greet production → ${v0.version!.digest}\n`);
    await cli(['label', 'greet', 'production', '--by', 'ci', '--project', project]);
    const listed = JSON.parse(await cli(['labels', 'greet', '--json', '--project', project])) as Awaited<ReturnType<typeof readPromptLabels>>;
    expect(listed.labels).toEqual({ production: v1.version!.digest });
    expect(listed.moves.map((m) => [m.from, m.to, m.by])).toEqual([[null, v0.version!.digest, 'ci'], [v0.version!.digest, v1.version!.digest, 'ci']]);
  });

  it('the built weft pulls, pushes an edit and says when a file is not a prompt file', async () => {
    const project = uniqueProject('prompt-built');
    const own = await mkdtemp(path.join(tmpdir(), 'weft-prompts-built-'));
    try {
      await publishPrompt(GREET, { client, project });
      const conn = ['--base-url', server().url, '--project', project, '--dir', own];
      expect(await built(['prompts', 'pull', ...conn])).toMatchObject({ code: 0 });
      const file = path.join(own, 'greet.prompt.md');
      await writeFile(file, (await readFile(file, 'utf8')).replace('Be brief.', 'Be very brief.'));
      const pushed = await built(['prompts', 'push', ...conn]);
      expect([pushed.code, pushed.stderr]).toEqual([0, `1 prompt versions published to ${project}\n`]);
      expect((await getPrompt('greet', { client, project, ttlMs: 0 })).value.messages![0]!.content).toBe('You are {{tone}}.\n\nBe very brief.');
      await writeFile(path.join(own, 'bad.prompt.md'), 'no front matter');
      const bad = await built(['prompts', 'diff', ...conn]);
      expect([bad.code, bad.stderr]).toEqual([1, `weft: ${path.join(own, 'bad.prompt.md')}: expected YAML front matter between "---" lines\n`]);
    } finally {
      await rm(own, { recursive: true, force: true });
    }
  });
});
