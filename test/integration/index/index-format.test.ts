// An index written by an older format, or damaged in a way its checksums do not catch, is rebuilt
// from the files with a notice on stderr, and recall answers exactly as before (never a crash).
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createHash } from 'node:crypto';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli, gitFixture } from '../../support/fixtures.js';

const sha = (b: Uint8Array) => createHash('sha256').update(b).digest('hex');

/** Replace one artifact and re-sign it in the manifest (damage only the decoder can see). */
function resign(idx: string, name: string, bytes: Uint8Array): void {
  writeFileSync(join(idx, name), bytes);
  const m = JSON.parse(readFileSync(join(idx, 'manifest.json'), 'utf8'));
  m.artifacts[name] = { ...m.artifacts[name], sha256: sha(bytes), bytes: bytes.byteLength };
  writeFileSync(join(idx, 'manifest.json'), JSON.stringify(m));
}

function setup() {
  const ws = gitFixture('demo');
  const first = runCli(['recall', 'webhook retries', '--dir', ws, '--json', '--mode', 'keyword']);
  expect(first.code).toBe(0);
  expect(first.json().results.length).toBeGreaterThan(0);
  const idx = join(ws, '.git', 'gitmem');
  const find = (re: RegExp) => readdirSync(idx).find((n) => re.test(n))!;
  return { ws, idx, first: first.json().results, find };
}

describe('index format changes and damage the checksums do not see', () => {
  it('an index of the previous format version is rebuilt with a notice, same results', () => {
    const { ws, idx, first } = setup();
    const m = JSON.parse(readFileSync(join(idx, 'manifest.json'), 'utf8'));
    m.formatVersion = m.formatVersion - 1;
    writeFileSync(join(idx, 'manifest.json'), JSON.stringify(m));
    const r = runCli(['recall', 'webhook retries', '--dir', ws, '--json', '--mode', 'keyword']);
    expect(r.code).toBe(0);
    expect(r.stderr).toMatch(/keyword index not usable \(index version.*\); rebuilding it from the files/);
    expect(r.json().results).toEqual(first);
    const again = runCli(['recall', 'webhook retries', '--dir', ws, '--json', '--mode', 'keyword']);
    expect(again.stderr).not.toMatch(/not usable/);
  });

  it('an index of an older format (per-file entries inline in manifest.json, no file tables) is rebuilt with a notice', () => {
    const { ws, idx, first } = setup();
    const m = JSON.parse(readFileSync(join(idx, 'manifest.json'), 'utf8'));
    expect(m.files.base).toMatch(/^files-[0-9a-f]{16}\.bin$/);
    expect(m.docs).toBeUndefined();
    const { files, ...rest } = m;
    delete rest.artifacts[files.base];
    const old = { ...rest, formatVersion: 7, docs: { 'MEMORY.md': { contentHash: 'h', chunkCount: m.chunkCount } } };
    writeFileSync(join(idx, 'manifest.json'), JSON.stringify(old));
    const r = runCli(['recall', 'webhook retries', '--dir', ws, '--json', '--mode', 'keyword']);
    expect(r.code).toBe(0);
    expect(r.stderr).toMatch(
      /keyword index not usable \(index version \(format 7, expected \d+\)\); rebuilding it from the files/,
    );
    expect(r.json().results).toEqual(first);
    const again = runCli(['recall', 'webhook retries', '--dir', ws, '--json', '--mode', 'keyword']);
    expect(again.stderr).not.toMatch(/not usable/);
  });

  it('a damaged per-file table (re-signed) is rebuilt with a notice, same results', () => {
    const { ws, idx, first } = setup();
    const m = JSON.parse(readFileSync(join(idx, 'manifest.json'), 'utf8'));
    resign(idx, m.files.base, readFileSync(join(idx, m.files.base)).subarray(0, 30));
    const r = runCli(['recall', 'webhook retries', '--dir', ws, '--json', '--mode', 'keyword']);
    expect(r.code).toBe(0);
    expect(r.stderr).toMatch(/keyword index not usable \(index corrupt \(file table/);
    expect(r.json().results).toEqual(first);
  });

  it('a truncated keyword segment (re-signed) is rebuilt with a notice, same results', () => {
    const { ws, idx, first, find } = setup();
    const name = find(/^base-[0-9a-f]+\.lex$/);
    resign(idx, name, readFileSync(join(idx, name)).subarray(0, 60));
    const r = runCli(['recall', 'webhook retries', '--dir', ws, '--json', '--mode', 'keyword']);
    expect(r.code).toBe(0);
    expect(r.stderr).toMatch(/keyword index not usable \(index unreadable \(keyword index: segment/);
    expect(r.json().results).toEqual(first);
  });

  it('a segment of the previous binary version (re-signed) is rebuilt, same results', () => {
    const { ws, idx, first, find } = setup();
    const name = find(/^base-[0-9a-f]+\.lex$/);
    const bytes = new Uint8Array(readFileSync(join(idx, name)));
    new DataView(bytes.buffer, bytes.byteOffset).setUint32(4, 1, true);
    resign(idx, name, bytes);
    const r = runCli(['recall', 'webhook retries', '--dir', ws, '--json', '--mode', 'keyword']);
    expect(r.code).toBe(0);
    expect(r.stderr).toMatch(/segment format 1 is not 2/);
    expect(r.json().results).toEqual(first);
  });

  it('truncated chunk records (re-signed) are rebuilt with a notice, same results', () => {
    const { ws, idx, first, find } = setup();
    const name = find(/^base-[0-9a-f]+\.chunks$/);
    resign(idx, name, readFileSync(join(idx, name)).subarray(0, 40));
    const r = runCli(['recall', 'webhook retries', '--dir', ws, '--json', '--mode', 'keyword']);
    expect(r.code).toBe(0);
    expect(r.stderr).toMatch(/keyword index not usable \(index unreadable \(chunk records: /);
    expect(r.json().results).toEqual(first);
  });
});
