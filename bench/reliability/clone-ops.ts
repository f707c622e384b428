// The writes of the convergence harness (convergence.ts) that need more than one CLI call: forget
// through the MCP server (memory_forget: the only way to archive an entry), supersede (a new entry
// whose front-matter names the old one in `supersedes:`, as the remember answer's possible_conflict
// advises), and the scan of a clone's memory files the checks read. Real `node dist/cli.cjs` processes.
import { spawn } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { CLI, listFiles } from './common.js';

/**
 * Call one MCP tool of `gitmem mcp` started in `cwd` (newline-delimited JSON-RPC over stdio: initialize,
 * initialized, tools/call). @returns the tool's structured answer, or an error message.
 */
export function mcpCall(
  cwd: string,
  tool: string,
  args: Record<string, unknown>,
  timeoutMs = 120_000,
): Promise<{ ok: boolean; result?: Record<string, unknown>; error?: string; ms: number }> {
  const t0 = performance.now();
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [CLI, 'mcp'], { cwd, stdio: ['pipe', 'pipe', 'pipe'] });
    let buf = '';
    let done = false;
    const finish = (r: { ok: boolean; result?: Record<string, unknown>; error?: string }) => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      child.stdin.end();
      child.kill('SIGTERM');
      resolve({ ...r, ms: performance.now() - t0 });
    };
    const timer = setTimeout(() => finish({ ok: false, error: `no answer in ${timeoutMs} ms` }), timeoutMs);
    child.on('error', (e) => finish({ ok: false, error: e.message }));
    child.on('exit', (code) => finish({ ok: false, error: `mcp exited ${code} before answering` }));
    child.stdout.setEncoding('utf8').on('data', (d: string) => {
      buf += d;
      for (let i = buf.indexOf('\n'); i >= 0; i = buf.indexOf('\n')) {
        const line = buf.slice(0, i);
        buf = buf.slice(i + 1);
        let msg: { id?: number; result?: { isError?: boolean; structuredContent?: Record<string, unknown> } };
        try {
          msg = JSON.parse(line);
        } catch {
          continue;
        }
        if (msg.id !== 2) continue;
        const r = msg.result;
        finish(r && !r.isError ? { ok: true, result: r.structuredContent ?? {} } : { ok: false, error: line });
      }
    });
    const send = (m: unknown) => child.stdin.write(`${JSON.stringify(m)}\n`);
    send({
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: { protocolVersion: '2025-03-26', capabilities: {}, clientInfo: { name: 'reliability', version: '1' } },
    });
    send({ jsonrpc: '2.0', method: 'notifications/initialized' });
    send({ jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: tool, arguments: args } });
  });
}

/** Add `supersedes: [old]` to the front-matter of the entry at `path` (relative to `dir`). */
export function markSuperseding(dir: string, path: string, old: string): void {
  const abs = join(dir, path);
  const text = readFileSync(abs, 'utf8');
  writeFileSync(abs, text.replace(/^(---\r?\n)/, `$1supersedes: [${old}]\n`));
}

/** Every memory markdown file of a clone: path → text. */
export function memoryTexts(dir: string): Map<string, string> {
  const out = new Map<string, string>();
  for (const f of listFiles(dir)) {
    if (f.startsWith('memory/') && f.endsWith('.md')) out.set(f, readFileSync(join(dir, f), 'utf8'));
  }
  return out;
}

/** Occurrences of `m` in `texts`, and the paths holding it. */
export function find(texts: ReadonlyMap<string, string>, m: string): { n: number; paths: string[] } {
  let n = 0;
  const paths: string[] = [];
  for (const [p, t] of texts) {
    const k = t.split(m).length - 1;
    if (k) {
      n += k;
      paths.push(p);
    }
  }
  return { n, paths };
}

/** Merge-conflict markers left in a text (a conflict written into a file). */
export const CONFLICT_MARKERS = /^(<{7}|>{7}) /m;

/** Value at fraction `p` of the sorted `xs` (NaN when empty). */
export function percentile(xs: readonly number[], p: number): number {
  const s = [...xs].sort((a, b) => a - b);
  return s.length ? s[Math.min(s.length - 1, Math.floor(p * s.length))]! : NaN;
}
