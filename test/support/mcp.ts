// Test support: the MCP server over real stdio (`node dist/cli.cjs mcp --dir <root>`) driven by the
// SDK's own client. Build first (`npm run build`).
import { rmSync } from 'node:fs';
import { dirname } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { afterAll, beforeAll } from 'vitest';
import { CLI, committedFixture, noModelEnv } from './fixtures.js';

type Json = Record<string, any>;

export interface McpSession {
  /** The SDK client, for what `call` does not cover (tools/list, the server's instructions). */
  readonly client: Client;
  call(name: string, args?: Json): Promise<{ isError: boolean; data: Json; text: string }>;
  stderr(): string;
  close(): Promise<void>;
}

/** Start `gitmem mcp` on `root` and connect a client. */
export async function startMcp(root: string, env: Record<string, string> = {}): Promise<McpSession> {
  let err = '';
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [CLI, 'mcp', '--dir', root],
    stderr: 'pipe',
    env: {
      ...(process.env as Record<string, string>),
      NO_COLOR: '1',
      GIT_AUTHOR_NAME: 'Test',
      GIT_AUTHOR_EMAIL: 'test@example.com',
      ...env,
    },
  });
  transport.stderr?.on('data', (d: Buffer) => (err += d.toString()));
  const client = new Client({ name: 'gitmem-test', version: '1.0.0' });
  await client.connect(transport);
  return {
    client,
    async call(name, args = {}) {
      const r = (await client.callTool({ name, arguments: args })) as {
        isError?: boolean;
        structuredContent?: Json;
        content: { type: string; text: string }[];
      };
      return { isError: r.isError === true, data: r.structuredContent ?? {}, text: r.content[0]?.text ?? '' };
    },
    stderr: () => err,
    close: () => client.close(),
  };
}

/**
 * One committed copy of the demo workspace and one `gitmem mcp` on it for a whole test file, with no
 * model and no host (`env()`, for the CLI calls beside it). Registers the file's beforeAll/afterAll:
 * `root` and `mcp` are there once beforeAll ran; the server is closed and the copy removed after.
 */
export function mcpOnDemo(): { readonly root: string; readonly mcp: McpSession; env(): Record<string, string> } {
  let root = '';
  let mcp: McpSession | undefined;
  const env = () => noModelEnv(root);
  beforeAll(async () => {
    root = committedFixture('demo');
    mcp = await startMcp(root, env());
  });
  afterAll(async () => {
    await mcp?.close();
    if (root) rmSync(dirname(root), { recursive: true, force: true });
  });
  return {
    get root() {
      return root;
    },
    get mcp() {
      if (!mcp) throw new Error('mcpOnDemo: the MCP server is not started yet (used outside a test?)');
      return mcp;
    },
    env,
  };
}
