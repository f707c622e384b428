// What `gitmem integrate codex` may add to a person's `.codex/config.toml`, decided from the parsed
// file (smol-toml), not from how its tables are spelled: `[features]`, `features = { … }` and
// `features.web_search = true` all declare the features table, and a second declaration is invalid
// TOML (docs/bad-inputs.md R53). deps: smol-toml, service/integrate (edits).
import { parse as parseToml } from 'smol-toml';
import { EditError } from './edits.js';

const isTable = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** What the person's file (gitmem's own block taken out) already declares. */
export interface CodexTomlState {
  /** The `features` table exists, however written: gitmem must not declare it again. */
  readonly hasFeatures: boolean;
  /** What the person must add by hand: `codex_hooks = true` in their own features table. */
  readonly note?: string;
}

/**
 * Read the person's `.codex/config.toml` text (without gitmem's block; call assertToml first).
 * @throws EditError when it already declares an `mcp_servers.gitmem` server, in any spelling
 *   (`[mcp_servers.gitmem]`, `mcp_servers.gitmem.command = …`, an inline table): nothing written.
 */
export function inspectCodexToml(text: string | undefined): CodexTomlState {
  if (text === undefined || !text.trim()) return { hasFeatures: false };
  const doc = parseToml(text.replace(/^\uFEFF/, '')) as Record<string, unknown>;
  const servers = doc['mcp_servers'];
  if (isTable(servers) && 'gitmem' in servers)
    throw new EditError(
      '.codex/config.toml already declares the MCP server mcp_servers.gitmem; remove it first or keep it by hand (nothing written)',
    );
  const features = doc['features'];
  if (features === undefined) return { hasFeatures: false };
  if (isTable(features) && features['codex_hooks'] === true) return { hasFeatures: true };
  return {
    hasFeatures: true,
    note: '.codex/config.toml already declares the features table: add `codex_hooks = true` to it for the hooks to run',
  };
}

/**
 * Check the text gitmem is about to write: it parses as TOML and declares the gitmem server as
 * `command` and `args`. @throws EditError (nothing is written) when adding gitmem's block would
 * leave the file invalid, e.g. an `mcp_servers = { … }` inline table, which a `[mcp_servers.gitmem]`
 * table cannot extend; the message gives the block to add by hand.
 */
export function assertCodexResult(after: string, body: string, server: { command: string; args: string[] }): void {
  let doc: Record<string, unknown>;
  try {
    doc = parseToml(after.replace(/^\uFEFF/, '')) as Record<string, unknown>;
  } catch (e) {
    const what = (e as Error).message.split('\n')[0]!.replace(/^Invalid TOML document: /, '');
    throw new EditError(
      `adding gitmem's tables to .codex/config.toml would make it invalid TOML (${what}); nothing written: add this by hand where it fits:\n${body}`,
    );
  }
  const servers = doc['mcp_servers'];
  const mine = isTable(servers) ? servers['gitmem'] : undefined;
  if (
    !isTable(mine) ||
    mine['command'] !== server.command ||
    JSON.stringify(mine['args']) !== JSON.stringify(server.args)
  )
    throw new EditError(
      `adding gitmem's tables to .codex/config.toml would not declare the server as written; nothing written: add this by hand:\n${body}`,
    );
}
