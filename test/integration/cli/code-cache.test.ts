// The CLI bundle's V8 code cache (src/cli/code-cache.ts) in the workspace's derived-state folder:
// the first call writes it, the next one runs from it, and a cache that is corrupt, made for another
// script, or cannot be read or written is never used — the CLI compiles from source and answers the
// same (V8 itself aborts the process on corrupt bytecode, so these must be caught before it sees
// them). Bad input H06 (docs/bad-inputs.md). Real CLI processes on a real git workspace in a temp folder.
import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import vm from 'node:vm';
import { crc32 } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { git, runCli, tempDir } from '../../support/fixtures.js';

const MAGIC = 'gitmem-v8-code-cache 1\n';
let root: string;

/** A recall's JSON without its timings. */
const answerOf = (stdout: string): unknown => JSON.parse(stdout, (k, v) => (k === 'tookMs' ? undefined : v));

/** A keyword recall with --debug: its JSON answer and what became of the code cache. */
function recall(): { answer: unknown; status: string; path: string } {
  const r = runCli(['recall', 'webhook retries', '--mode', 'keyword', '--no-host', '--json', '--debug', '--dir', root]);
  expect(r.code, r.stderr).toBe(0);
  // A recall runs in the read bundle (dist/cli-read.cjs), which keeps a cache of its own.
  const m = /^gitmem: read bundle code cache (.+?)(?:: (\/.+))?$/m.exec(r.stderr);
  expect(m, r.stderr).not.toBeNull();
  return { answer: answerOf(r.stdout), status: m![1]!, path: m![2] ?? '' };
}

/** The cache file's header and V8 payload. */
function readCache(path: string): { header: Record<string, unknown>; payload: Buffer } {
  const buf = readFileSync(path);
  expect(buf.toString('latin1', 0, MAGIC.length)).toBe(MAGIC);
  const end = buf.indexOf(10, MAGIC.length);
  return { header: JSON.parse(buf.toString('utf8', MAGIC.length, end)), payload: buf.subarray(end + 1) };
}

function writeCache(path: string, header: Record<string, unknown>, payload: Buffer): void {
  writeFileSync(path, Buffer.concat([Buffer.from(`${MAGIC}${JSON.stringify(header)}\n`), payload]));
}

beforeAll(() => {
  root = tempDir('gitmem-code-cache-');
  mkdirSync(join(root, 'memory'));
  writeFileSync(
    join(root, 'memory', 'MEMORY.md'),
    '# Memory\n\n- webhook retries use exponential backoff\n- deploys happen on Tuesdays\n',
  );
  git(root, 'init', '-q');
});
afterAll(() => rmSync(root, { recursive: true, force: true }));

describe('the CLI code cache', { timeout: 120_000 }, () => {
  let expected: unknown;
  let path: string;

  it('is written by the first call in a workspace and used by the next, with the same answer', () => {
    const first = recall();
    expect(first.status).toMatch(/^(off \(no derived-state folder\)|missing)$/);
    path = first.path;
    expect(path.startsWith(join(root, '.git', 'gitmem', 'code-cache-'))).toBe(true);
    expect(readCache(path).payload.length).toBeGreaterThan(0);
    expected = first.answer;
    const second = recall();
    expect(second.status).toBe('accepted');
    expect(second.answer).toEqual(expected);
  });

  it('with a corrupt payload is refused before V8 sees it, the CLI answers, and the cache is rewritten', () => {
    const { header, payload } = readCache(path);
    const bad = Buffer.from(payload);
    for (let i = 64; i < bad.length; i += 97) bad[i] = bad[i]! ^ 0xff;
    writeCache(path, header, bad);
    const r = recall();
    expect(r.status).toBe('corrupt');
    expect(r.answer).toEqual(expected);
    expect(recall().status).toBe('accepted');
    // Cut short.
    writeFileSync(path, readFileSync(path).subarray(0, 200));
    expect(recall()).toMatchObject({ status: 'corrupt', answer: expected });
  });

  it('made for another script or another build is not used, and the CLI answers', () => {
    recall();
    const { header } = readCache(path);
    // A well-formed file whose bytecode is another script's: V8 refuses it.
    const foreign = new vm.Script('globalThis.x = 1;').createCachedData();
    writeCache(path, { ...header, length: foreign.length, crc: crc32(foreign) }, foreign);
    expect(recall()).toMatchObject({ status: 'rejected by V8', answer: expected });
    // Another build's cache under this name: stale.
    const { header: h2, payload } = readCache(path);
    writeCache(path, { ...h2, bundle: 'f'.repeat(64) }, payload);
    expect(recall()).toMatchObject({ status: 'stale', answer: expected });
    expect(recall().status).toBe('accepted');
  });

  it('that cannot be read or written only means no cache', () => {
    rmSync(path, { force: true });
    mkdirSync(path);
    expect(recall()).toMatchObject({ status: 'missing', answer: expected });
    expect(readdirSync(dirname(path)).filter((n) => n.endsWith('.tmp'))).toEqual([]);
    rmSync(path, { recursive: true });
    const off = runCli(
      ['recall', 'webhook retries', '--mode', 'keyword', '--no-host', '--json', '--debug', '--dir', root],
      {
        env: { GITMEM_NO_CODE_CACHE: '1' },
      },
    );
    expect(off.stderr).toMatch(/^gitmem: read bundle code cache off \(GITMEM_NO_CODE_CACHE\)$/m);
    expect(answerOf(off.stdout)).toEqual(expected);
  });
});
