// Real-corpora figures: every workspace under fixtures/corpora, copied to a temp folder, read, parsed,
// validated and keyword-indexed cold; prints files/s and MB/s per corpus. `npm run bench:corpora`.
import { validate } from '../src/service/validate/validate.js';
import { cpSync, mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createIndexStorage } from '../src/platform/index-storage.js';
import { createNodeFs } from '../src/platform/node-fs.js';
import { createMemory } from '../src/service/memory.js';

/** Figures for every corpus folder in `corpora` (e.g. fixtures/corpora). */
export async function runCorpora(corpora: string) {
  const rows: {
    name: string;
    layout: string;
    files: number;
    chunks: number;
    mb: number;
    ms: number;
    diagnostics: number;
  }[] = [];
  for (const name of readdirSync(corpora)
    .filter((n) => statSync(join(corpora, n)).isDirectory())
    .sort()) {
    const tmp = mkdtempSync(join(tmpdir(), 'gitmem-corpus-'));
    try {
      const root = join(tmp, name);
      cpSync(join(corpora, name), root, { recursive: true });
      const t0 = performance.now();
      const mem = await createMemory({
        fs: createNodeFs(root),
        openStorage: () => createIndexStorage(join(tmp, 'idx')),
        freshness: 'manual',
        createEmbedder: () => Promise.reject(new Error('keyword-only figure')),
      });
      const rep = await mem.index();
      const diags = await validate(mem.context);
      const ms = performance.now() - t0;
      rows.push({
        name,
        layout: mem.loaded.layout.name,
        files: rep.files,
        chunks: rep.chunks,
        mb: rep.bytes / 1e6,
        ms,
        diagnostics: diags.length,
      });
    } finally {
      rmSync(tmp, { recursive: true, force: true });
    }
  }
  const lines = [
    '| corpus | layout | files | chunks | MB | ms (read + parse + validate + keyword index) | files/s | MB/s | diagnostics |',
    '| --- | --- | --- | --- | --- | --- | --- | --- | --- |',
  ];
  let files = 0;
  let mb = 0;
  let ms = 0;
  for (const r of rows) {
    files += r.files;
    mb += r.mb;
    ms += r.ms;
    lines.push(
      `| ${r.name} | ${r.layout} | ${r.files} | ${r.chunks} | ${r.mb.toFixed(2)} | ${r.ms.toFixed(0)} | ${(r.files / (r.ms / 1000)).toFixed(0)} | ${(r.mb / (r.ms / 1000)).toFixed(2)} | ${r.diagnostics} |`,
    );
  }
  lines.push(
    `| **all** | | ${files} | | ${mb.toFixed(2)} | ${ms.toFixed(0)} | ${(files / (ms / 1000)).toFixed(0)} | ${(mb / (ms / 1000)).toFixed(2)} | |`,
  );
  return lines.join('\n');
}
