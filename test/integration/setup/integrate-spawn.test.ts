// The MCP server each host's file names, started as that host starts it: `gitmem integrate <host>` on a
// real repository holding the demo memory, the registration read back with a parser of the host's
// format (jsonc-parser, smol-toml), then the command spawned over stdio by the MCP SDK's client from
// the folder the host starts it in, speaking initialize, tools/list and memory_recall. Claude Code,
// Codex, Copilot CLI and Gemini CLI start a stdio server in the folder the agent runs in, which may
// be a sub-folder of the repository (R70); Cursor may start it in `/` and documents
// `${workspaceFolder}` for the project (R71); VS Code fills in `${workspaceFolder}` too.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { parse as parseJsonc } from 'jsonc-parser';
import { parse as parseToml } from 'smol-toml';
import { describe, expect, it } from 'vitest';
import { runCli } from '../../support/fixtures.js';
import { useDemoProjects } from '../../support/demo-project.js';

const { projectWithGitmemOnPath: project } = useDemoProjects();

interface Registration {
  command: string;
  args?: string[];
}

/** The gitmem server entry of `host`'s file, parsed with a parser of that file's format. */
function registration(host: string, root: string): Registration {
  const jsonc = (p: string) => {
    const errors: unknown[] = [];
    const v = parseJsonc(readFileSync(join(root, p), 'utf8'), errors as never, { allowTrailingComma: true });
    expect(errors, p).toEqual([]);
    return v;
  };
  switch (host) {
    case 'claude-code':
    case 'copilot':
      return jsonc('.mcp.json').mcpServers.gitmem;
    case 'cursor':
      return jsonc('.cursor/mcp.json').mcpServers.gitmem;
    case 'gemini':
      return jsonc('.gemini/settings.json').mcpServers.gitmem;
    case 'vscode':
      return jsonc('.vscode/mcp.json').servers.gitmem;
    default:
      return (parseToml(readFileSync(join(root, '.codex/config.toml'), 'utf8')) as any).mcp_servers.gitmem;
  }
}

/** Start the registered server as the host does (from `cwd`, `${workspaceFolder}` → root) and recall. */
async function recallThrough(reg: Registration, cwd: string, root: string, env: Record<string, string>) {
  let stderr = '';
  const transport = new StdioClientTransport({
    command: reg.command,
    args: (reg.args ?? []).map((a) => a.replaceAll('${workspaceFolder}', root)),
    cwd,
    stderr: 'pipe',
    env: { ...(process.env as Record<string, string>), ...env },
  });
  transport.stderr?.on('data', (d: Buffer) => (stderr += d.toString()));
  const client = new Client({ name: 'host', version: '1.0.0' });
  try {
    await client.connect(transport);
    const tools = (await client.listTools()).tools.map((t) => t.name);
    const r = (await client.callTool({ name: 'memory_recall', arguments: { query: 'webhook retries jitter' } })) as {
      isError?: boolean;
      content: { text: string }[];
    };
    return { server: client.getServerVersion()?.name, tools, isError: r.isError === true, text: r.content[0]!.text };
  } catch (e) {
    throw new Error(`${(e as Error).message}\nserver stderr: ${stderr}`, { cause: e });
  } finally {
    await client.close();
  }
}

// where each host starts a stdio server: the folder the agent runs in (here a sub-folder), or `/`
const START: Record<string, (root: string) => string> = {
  'claude-code': (root) => join(root, 'src', 'api'),
  codex: (root) => join(root, 'src', 'api'),
  copilot: (root) => join(root, 'src', 'api'),
  gemini: (root) => join(root, 'src', 'api'),
  cursor: () => '/',
  vscode: () => '/',
};

describe('gitmem integrate: the MCP server each host names starts and answers', () => {
  for (const host of Object.keys(START)) {
    it(`${host}: initialize, tools/list and memory_recall through the registered command (R70, R71)`, async () => {
      const { root, env } = project();
      const r = runCli(['integrate', host], { cwd: root, env });
      expect(r.code, r.stderr).toBe(0);
      const cwd = START[host]!(root);
      mkdirSync(cwd, { recursive: true });
      const answer = await recallThrough(registration(host, root), cwd, root, env);
      expect(answer.server).toBe('gitmem');
      expect(answer.tools).toEqual(expect.arrayContaining(['memory_recall', 'memory_remember', 'memory_state']));
      expect(answer.isError, answer.text).toBe(false);
      const results = JSON.parse(answer.text).results as { path: string }[];
      expect(results.map((x) => x.path)).toContain('memory/2026-11-24.md');
    }, 60_000);
  }

  it('a registration an earlier gitmem wrote (`mcp --dir .`) is brought up to date, and --remove still takes it out (R70)', () => {
    const { root, env } = project();
    const old =
      '{\n  "mcpServers": {\n    "gitmem": {\n      "command": "gitmem",\n      "args": ["mcp", "--dir", "."]\n    }\n  }\n}\n';
    mkdirSync(join(root, '.gemini'));
    writeFileSync(join(root, '.gemini/settings.json'), old);
    const r = runCli(['integrate', 'gemini', '--json'], { cwd: root, env });
    expect(r.code, r.stderr).toBe(0);
    expect(r.json().notes).toEqual([]);
    expect(registration('gemini', root)).toEqual({ command: 'gitmem', args: ['mcp'] });
    expect(runCli(['integrate', 'gemini', '--remove'], { cwd: root, env }).code).toBe(0);
    expect(readFileSync(join(root, '.gemini/settings.json'), 'utf8')).toBe(old);
  });

  it('a workspace below its repository root keeps --dir . and says where to start the agent (R70)', async () => {
    const { root, env } = project();
    const sub = join(root, 'packages', 'app');
    mkdirSync(sub, { recursive: true });
    expect(runCli(['init', '--dir', sub], { cwd: root, env }).code).toBe(0);
    expect(
      runCli(['remember', 'Retries in the app use jitter', '--type', 'decision', '--dir', sub], { cwd: root, env })
        .code,
    ).toBe(0);
    const r = runCli(['integrate', 'gemini', '--dir', sub, '--json'], { cwd: root, env });
    expect(r.code, r.stderr).toBe(0);
    expect(r.json().notes.join('\n')).toContain(`start gemini in ${sub}`);
    const reg = registration('gemini', sub);
    expect(reg).toEqual({ command: 'gitmem', args: ['mcp', '--dir', '.'] });
    const answer = await recallThrough(reg, sub, sub, env);
    expect(answer.isError, answer.text).toBe(false);
    expect((JSON.parse(answer.text).results as { path: string }[]).map((x) => x.path)).toEqual(
      expect.arrayContaining([expect.stringMatching(/^memory\/entries\/.*retries-in-the-app-use-jitter\.md$/)]),
    );
  }, 60_000);

  it('copilot --user: ~/.copilot/mcp-config.json in the shape Copilot documents, and the server it names answers', async () => {
    const { root, env } = project();
    const home = join(dirname(root), 'home');
    mkdirSync(home);
    const r = runCli(['integrate', 'copilot', '--user', '--json'], { cwd: root, env: { ...env, HOME: home } });
    expect(r.code, r.stderr).toBe(0);
    expect(r.json().base).toBe(home);
    const text = readFileSync(join(home, '.copilot/mcp-config.json'), 'utf8');
    const reg = parseJsonc(text).mcpServers.gitmem;
    expect(reg).toEqual({ type: 'stdio', command: 'gitmem', args: ['mcp'], tools: ['*'] });
    const cwd = join(root, 'src');
    mkdirSync(cwd, { recursive: true });
    const answer = await recallThrough(reg, cwd, root, env);
    expect(answer.isError, answer.text).toBe(false);
    expect((JSON.parse(answer.text).results as { path: string }[]).map((x) => x.path)).toContain(
      'memory/2026-11-24.md',
    );
    expect(
      runCli(['integrate', 'copilot', '--user', '--remove'], { cwd: root, env: { ...env, HOME: home } }).code,
    ).toBe(0);
    expect(() => readFileSync(join(home, '.copilot/mcp-config.json'))).toThrow();
  }, 60_000);
});
