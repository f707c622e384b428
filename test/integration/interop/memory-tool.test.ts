// Claude's client-side memory tool (`memory_20250818`) served on a real gitmem workspace in a temp git
// repository: every command as the documented JSON shape (docs/integrations.md), its result text and
// its error text; `/memories` mapped onto memory/claude/; paths that escape refused (`..`, outside
// /memories, a symlink out of the folder); a credential refused; the size cap; the created file
// recalled by `gitmem recall` (a real process) and labelled `unreviewed`, listed by `gitmem review`;
// nothing committed; a person's uncommitted text never deleted.
import { existsSync, mkdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createMemoryToolBackend, MemoryToolError, type OpenedMemoryToolBackend } from '../../../src/index.js';
import { committedFixture, git, noModelEnv, requireBuiltCli, runCli } from '../../support/fixtures.js';

const made: string[] = [];
const opened: OpenedMemoryToolBackend[] = [];
beforeAll(() => requireBuiltCli());
afterEach(async () => {
  for (const b of opened.splice(0)) await b.dispose();
  for (const d of made.splice(0)) rmSync(d, { recursive: true, force: true });
});

/** A committed copy of the demo workspace and the memory tool served on it (no model: keyword recall). */
async function setup(): Promise<{ root: string; tool: OpenedMemoryToolBackend; env: Record<string, string> }> {
  const root = committedFixture('demo');
  made.push(dirname(root));
  const tool = await createMemoryToolBackend(root, { modelDir: join(dirname(root), 'no-model') });
  opened.push(tool);
  return { root, tool, env: noModelEnv(root) };
}

/** The error text a command ends with (it must end with one). */
async function refusal(tool: OpenedMemoryToolBackend, command: Record<string, unknown>): Promise<MemoryToolError> {
  const e = await tool.handle(command).then(
    (text) => new Error(`expected a refusal, got: ${text}`),
    (err: unknown) => err,
  );
  expect(e).toBeInstanceOf(MemoryToolError);
  return e as MemoryToolError;
}

const NOTES =
  '# Deploy notes\n\nStaging deploys need the zqbluegreen switch flipped first.\n- retry: yes\n- retry: yes\n';

describe("Claude's memory tool on a gitmem workspace", () => {
  it('serves every command with the documented result texts, on memory/claude/, left for review', async () => {
    const { root, tool, env } = await setup();
    const head = git(root, 'rev-parse', 'HEAD').trim();
    expect(tool.folder).toBe('memory/claude');

    expect(await tool.handle({ command: 'view', path: '/memories' })).toBe(
      "Here're the files and directories up to 2 levels deep in /memories, excluding hidden items:\n0B\t/memories",
    );

    expect(await tool.handle({ command: 'create', path: '/memories/deploy.md', file_text: NOTES })).toBe(
      'File created successfully at: /memories/deploy.md',
    );
    expect(readFileSync(join(root, 'memory/claude/deploy.md'), 'utf8')).toBe(NOTES);
    expect((await refusal(tool, { command: 'create', path: '/memories/deploy.md', file_text: 'x' })).message).toBe(
      'File /memories/deploy.md already exists',
    );

    expect(await tool.handle({ command: 'view', path: '/memories/deploy.md' })).toBe(
      "Here's the content of /memories/deploy.md with line numbers:\n" +
        '     1\t# Deploy notes\n     2\t\n     3\tStaging deploys need the zqbluegreen switch flipped first.\n' +
        '     4\t- retry: yes\n     5\t- retry: yes',
    );
    expect(await tool.handle({ command: 'view', path: '/memories/deploy.md', view_range: [3, 4] })).toBe(
      "Here's the content of /memories/deploy.md with line numbers:\n" +
        '     3\tStaging deploys need the zqbluegreen switch flipped first.\n     4\t- retry: yes',
    );
    expect(await tool.handle({ command: 'view', path: '/memories' })).toBe(
      "Here're the files and directories up to 2 levels deep in /memories, excluding hidden items:\n" +
        `${NOTES.length}B\t/memories\n${NOTES.length}B\t/memories/deploy.md`,
    );
    expect((await refusal(tool, { command: 'view', path: '/memories/nope.md' })).message).toBe(
      'The path /memories/nope.md does not exist. Please provide a valid path.',
    );

    // str_replace: not unique, missing, then unique
    expect(
      (
        await refusal(tool, {
          command: 'str_replace',
          path: '/memories/deploy.md',
          old_str: '- retry: yes',
          new_str: '',
        })
      ).message,
    ).toBe(
      'No replacement was performed. Multiple occurrences of old_str `- retry: yes` in lines: 4, 5. Please ensure it is unique',
    );
    expect(
      (await refusal(tool, { command: 'str_replace', path: '/memories/deploy.md', old_str: 'canary', new_str: 'x' }))
        .message,
    ).toBe('No replacement was performed, old_str `canary` did not appear verbatim in /memories/deploy.md.');
    expect(readFileSync(join(root, 'memory/claude/deploy.md'), 'utf8')).toBe(NOTES);
    expect(
      await tool.handle({
        command: 'str_replace',
        path: '/memories/deploy.md',
        old_str: 'flipped first',
        new_str: 'flipped before the deploy',
      }),
    ).toBe(
      'The memory file has been edited. Here is the snippet showing the change (with line numbers):\n' +
        '     1\t# Deploy notes\n     2\t\n     3\tStaging deploys need the zqbluegreen switch flipped before the deploy.\n' +
        '     4\t- retry: yes\n     5\t- retry: yes',
    );

    // insert after line 1, then a line outside the file
    expect(
      await tool.handle({
        command: 'insert',
        path: '/memories/deploy.md',
        insert_line: 1,
        insert_text: 'Owner: ops.\n',
      }),
    ).toBe('The file /memories/deploy.md has been edited.');
    expect(readFileSync(join(root, 'memory/claude/deploy.md'), 'utf8')).toBe(
      '# Deploy notes\nOwner: ops.\n\nStaging deploys need the zqbluegreen switch flipped before the deploy.\n- retry: yes\n- retry: yes\n',
    );
    expect(
      (await refusal(tool, { command: 'insert', path: '/memories/deploy.md', insert_line: 99, insert_text: 'x' }))
        .message,
    ).toBe('Invalid `insert_line` parameter: 99. It should be within the range [0, 6].');

    // recalled by the CLI (a real process), labelled unreviewed; listed by gitmem review as the memory tool's
    const recall = runCli(['recall', 'zqbluegreen', '--json', '--mode', 'keyword', '--dir', root], { env });
    expect(recall.code, recall.stderr).toBe(0);
    const hit = (recall.json().results as { path: string; review?: string }[]).find(
      (r) => r.path === 'memory/claude/deploy.md',
    );
    expect(hit?.review).toBe('unreviewed');
    const review = runCli(['review', '--json', '--dir', root], { env });
    expect(review.code, review.stderr).toBe(0);
    expect(review.json().pending).toContainEqual(
      expect.objectContaining({ path: 'memory/claude/deploy.md', state: 'unreviewed', via: 'memory-tool' }),
    );

    // rename into a sub-folder; never onto an existing file
    await tool.handle({ command: 'create', path: '/memories/other.md', file_text: '# Other\n' });
    expect(
      (await refusal(tool, { command: 'rename', old_path: '/memories/other.md', new_path: '/memories/deploy.md' }))
        .message,
    ).toBe('The destination /memories/deploy.md already exists');
    expect(
      await tool.handle({ command: 'rename', old_path: '/memories/deploy.md', new_path: '/memories/ops/deploy.md' }),
    ).toBe('Successfully renamed /memories/deploy.md to /memories/ops/deploy.md');
    expect(existsSync(join(root, 'memory/claude/deploy.md'))).toBe(false);
    expect(readFileSync(join(root, 'memory/claude/ops/deploy.md'), 'utf8')).toContain('zqbluegreen');
    expect(
      (await refusal(tool, { command: 'rename', old_path: '/memories/gone.md', new_path: '/memories/x.md' })).message,
    ).toBe('The path /memories/gone.md does not exist');

    // delete a file, a folder; the root and a missing path are refused
    expect(await tool.handle({ command: 'delete', path: '/memories/ops' })).toBe('Successfully deleted /memories/ops');
    expect(existsSync(join(root, 'memory/claude/ops/deploy.md'))).toBe(false);
    expect((await refusal(tool, { command: 'view', path: '/memories/ops/deploy.md' })).message).toBe(
      'The path /memories/ops/deploy.md does not exist. Please provide a valid path.',
    );
    expect(await tool.handle({ command: 'delete', path: '/memories/other.md' })).toBe(
      'Successfully deleted /memories/other.md',
    );
    expect((await refusal(tool, { command: 'delete', path: '/memories/other.md' })).message).toBe(
      'The path /memories/other.md does not exist',
    );
    expect((await refusal(tool, { command: 'delete', path: '/memories' })).message).toBe(
      'Cannot delete the /memories directory itself',
    );

    // nothing was committed; the workspace's own memory is untouched
    expect(git(root, 'rev-parse', 'HEAD').trim()).toBe(head);
    expect(git(root, 'status', '--porcelain').trim()).toBe('');
  });

  it('refuses paths that escape /memories: `..`, outside /memories, a symlink out of the folder, not markdown', async () => {
    const { root, tool } = await setup();
    const before = git(root, 'status', '--porcelain');
    expect((await refusal(tool, { command: 'view', path: '/memories/../MEMORY.md' })).message).toBe(
      'Path /memories/../MEMORY.md would escape the /memories directory',
    );
    expect((await refusal(tool, { command: 'create', path: '/memories/../../escape.md', file_text: 'x' })).code).toBe(
      'path.outside-root',
    );
    expect((await refusal(tool, { command: 'view', path: '/etc/passwd' })).message).toBe(
      'Path must start with /memories, got: /etc/passwd',
    );
    expect(
      (await refusal(tool, { command: 'rename', old_path: '/memories/a.md', new_path: '/memoriesx/a.md' })).code,
    ).toBe('path.outside-root');
    // a symlinked folder under memory/claude/ leading to the workspace's entries: refused, nothing written there
    mkdirSync(join(root, 'memory/claude'), { recursive: true });
    symlinkSync('../entries', join(root, 'memory/claude/linked'));
    const viaLink = await refusal(tool, { command: 'create', path: '/memories/linked/planted.md', file_text: '# x\n' });
    expect(viaLink.message).toBe('Path /memories/linked/planted.md would escape the /memories directory via a symlink');
    expect(existsSync(join(root, 'memory/entries/planted.md'))).toBe(false);
    // and one leading out of the workspace
    const outside = join(dirname(root), 'outside');
    mkdirSync(outside);
    symlinkSync(outside, join(root, 'memory/claude/out'));
    expect((await refusal(tool, { command: 'create', path: '/memories/out/x.md', file_text: '# x\n' })).code).toBe(
      'path.outside-root',
    );
    expect(existsSync(join(outside, 'x.md'))).toBe(false);
    // memory is markdown
    expect((await refusal(tool, { command: 'create', path: '/memories/notes.txt', file_text: 'x' })).message).toBe(
      '/memories/notes.txt is not a markdown file: gitmem keeps memory as markdown, so name it with .md (e.g. /memories/notes.md)',
    );
    rmSync(join(root, 'memory/claude'), { recursive: true });
    expect(git(root, 'status', '--porcelain')).toBe(before);
  });

  it('refuses a credential, a text over the size cap, and deleting a person’s uncommitted text', async () => {
    const { root, tool } = await setup();
    const token = `ghp_${'Q1w2E3r4T5'.repeat(4)}`;
    const secret = await refusal(tool, {
      command: 'create',
      path: '/memories/ci.md',
      file_text: `# CI\n\nThe bot token is ${token}\n`,
    });
    expect(secret.code).toBe('secret.found');
    expect(secret.message).not.toContain(token);
    expect(existsSync(join(root, 'memory/claude/ci.md'))).toBe(false);

    await tool.handle({
      command: 'create',
      path: '/memories/ci.md',
      file_text: '# CI\n\nThe bot token lives in the vault.\n',
    });
    const edit = await refusal(tool, {
      command: 'str_replace',
      path: '/memories/ci.md',
      old_str: 'lives in the vault',
      new_str: `is ${token}`,
    });
    expect(edit.code).toBe('secret.found');
    expect(readFileSync(join(root, 'memory/claude/ci.md'), 'utf8')).toBe('# CI\n\nThe bot token lives in the vault.\n');

    const big = await refusal(tool, { command: 'create', path: '/memories/big.md', file_text: 'a'.repeat(100_001) });
    expect(big.message).toMatch(/^\/memories\/big\.md is 100,001 characters, over the 100,000-character cap/);
    expect(existsSync(join(root, 'memory/claude/big.md'))).toBe(false);

    // a person's text, not committed: never deleted (nothing would keep it)
    writeFileSync(join(root, 'memory/claude/mine.md'), '# Mine\n\nA person wrote this.\n');
    const keep = await refusal(tool, { command: 'delete', path: '/memories/mine.md' });
    expect(keep.message).toBe(
      '/memories/mine.md holds changes a person made that are not committed, so nothing was deleted (commit or review them first: gitmem review)',
    );
    expect(existsSync(join(root, 'memory/claude/mine.md'))).toBe(true);
    // once committed, git keeps it: the delete goes through, uncommitted
    git(root, 'add', 'memory/claude/mine.md');
    git(root, 'commit', '-q', '-m', 'mine');
    expect(await tool.handle({ command: 'delete', path: '/memories/mine.md' })).toBe(
      'Successfully deleted /memories/mine.md',
    );
    expect(git(root, 'status', '--porcelain')).toContain(' D memory/claude/mine.md');
  });
});
