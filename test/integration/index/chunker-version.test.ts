// An index whose chunk texts were made by an older chunker (here gitmem-chunk-3, before a credential
// wrapped across a line end was masked in chunk text: R131) is not served: its fingerprint no longer
// matches, it is rebuilt from the files with a notice, and recall shows the token masked (R140).
import { readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createHash } from 'node:crypto';
import { join } from 'node:path';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { indexFingerprint } from '../../../src/engine/chunks/index-manager.js';
import { loadConfig } from '../../../src/engine/load/load.js';
import { createNodeFs } from '../../../src/platform/node-fs.js';
import { bareWorkspace, git, noModelEnv, requireBuiltCli, runCli, write } from '../../support/fixtures.js';

const REST = 'AbCdEfGhIjKlMnOpQrStUvWxYz0123456789';
const sha = (b: Uint8Array) => createHash('sha256').update(b).digest('hex');

let root = '';
afterEach(() => rmSync(root, { recursive: true, force: true }));
beforeAll(requireBuiltCli);

/** The chunk text a chunker before R131 stored (the halves as written), in the masked text's bytes. */
function asOlderChunker(idx: string): void {
  const masked = Buffer.from(JSON.stringify('ghp_…[redacted: GitHub token]\n[redacted: GitHub token]').slice(1, -1));
  const raw = Buffer.from(JSON.stringify(`ghp_\n${REST}`).slice(1, -1));
  const old = Buffer.concat([raw, Buffer.alloc(masked.length - raw.length, ' ')]);
  const m = JSON.parse(readFileSync(join(idx, 'manifest.json'), 'utf8'));
  let replaced = 0;
  for (const name of readdirSync(idx).filter((n) => n.endsWith('.chunks'))) {
    const bytes = readFileSync(join(idx, name));
    const at = bytes.indexOf(masked);
    if (at < 0) continue;
    old.copy(bytes, at);
    writeFileSync(join(idx, name), bytes);
    m.artifacts[name] = { ...m.artifacts[name], sha256: sha(bytes), bytes: bytes.byteLength };
    replaced++;
  }
  expect(replaced).toBe(1);
  writeFileSync(join(idx, 'manifest.json'), JSON.stringify(m));
}

describe('an index made by an older chunker version (R140)', () => {
  it('is rebuilt from the files, never served: a wrapped token stays masked in recall', async () => {
    ({ root } = bareWorkspace());
    const ws = join(root, 'ws');
    write(
      ws,
      'memory/entries/deploy.md',
      `---\ntype: decision\n---\nThe deploy token is ghp_\n${REST} and it rotates.\n`,
    );
    git(ws, 'init', '-q');
    const env = noModelEnv(root);
    const recall = () =>
      runCli(['recall', 'deploy token rotates', '--dir', ws, '--json', '--mode', 'keyword'], { env });
    const first = recall();
    expect(first.code, first.stderr).toBe(0);
    expect(first.stdout).not.toContain(REST);

    // The index as gitmem-chunk-3 left it: its fingerprint, and the halves side by side in the chunk text.
    const idx = join(ws, '.git', 'gitmem');
    const loaded = await loadConfig(createNodeFs(ws));
    const m = JSON.parse(readFileSync(join(idx, 'manifest.json'), 'utf8'));
    expect(m.fingerprint).toBe(indexFingerprint(loaded.config, loaded.layout));
    asOlderChunker(idx);
    const older = JSON.parse(readFileSync(join(idx, 'manifest.json'), 'utf8'));
    older.fingerprint = indexFingerprint(loaded.config, loaded.layout, 'gitmem-chunk-3');
    writeFileSync(join(idx, 'manifest.json'), JSON.stringify(older));

    const r = recall();
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).not.toContain(REST);
    expect(r.stderr).toMatch(/keyword index not usable \(.*\); rebuilding it from the files/);
    expect(r.json().results[0].snippet).toContain('ghp_…[redacted: GitHub token]');
  });
});
