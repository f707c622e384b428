// indexes/embed/model-hashes.ts: a model file's SHA-256 is taken from the store while its stat is
// unchanged, and hashed again after a rewrite or when the store holds garbage. Real files in a temp
// folder; the hash function counts its calls (a real SHA-256).
import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { modelFileHashes, type ModelHashStore } from '../../../../src/indexes/embed/model-hashes.js';

const dir = mkdtempSync(join(tmpdir(), 'gitmem-model-hashes-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const stat = (p: string) => statSync(p, { bigint: true, throwIfNoEntry: false });
const sha = (p: string) => createHash('sha256').update(readFileSync(p)).digest('hex');
function memoryStore(): ModelHashStore & { files: Map<string, string> } {
  const files = new Map<string, string>();
  return {
    files,
    read: async (n) => (files.has(n) ? new TextEncoder().encode(files.get(n)) : undefined),
    write: async (n, d) => void files.set(n, d),
  };
}

describe('model file hashes remembered by stat', () => {
  it('hashes once while the stat is unchanged, again after a rewrite, and survives a garbage store', async () => {
    const a = join(dir, 'model.onnx');
    const b = join(dir, 'model.onnx_data');
    writeFileSync(a, 'graph');
    writeFileSync(b, 'weights');
    // Older than the racy window, with sub-second timestamps.
    const old = (Date.now() - 60_000) / 1000 + 0.123;
    utimesSync(a, old, old);
    utimesSync(b, old, old);
    const store = memoryStore();
    let calls = 0;
    const hash = async (p: string) => (calls++, sha(p));

    expect(await modelFileHashes([a, b], hash, store, stat)).toEqual([sha(a), sha(b)]);
    expect(calls).toBe(2);
    expect(await modelFileHashes([a, b], hash, store, stat)).toEqual([sha(a), sha(b)]);
    expect(calls).toBe(2);

    // Same size, same mtime set back: the ctime (and so the key) still changes, so it is re-read.
    writeFileSync(b, 'WEIGHTS');
    utimesSync(b, old, old);
    expect(await modelFileHashes([a, b], hash, store, stat)).toEqual([sha(a), sha(b)]);
    expect(calls).toBe(3);

    // A file modified just now is hashed but not remembered (its timestamp may not show the next write).
    writeFileSync(a, 'graph 2');
    await modelFileHashes([a], hash, store, stat);
    await modelFileHashes([a], hash, store, stat);
    expect(calls).toBe(5);

    store.files.set('model-hashes.json', '{"files": {"x": 1}, oops');
    expect(await modelFileHashes([b], hash, store, stat)).toEqual([sha(b)]);
    expect(calls).toBe(6);
    // Without a store every call hashes.
    await modelFileHashes([b], hash, undefined, stat);
    expect(calls).toBe(7);
  });
});
