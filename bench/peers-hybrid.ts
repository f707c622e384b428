// The hybrid rows of bench:peers (issue 46): a synthetic workspace (bench/perf.ts generator, about 5
// chunks a file) indexed with synthetic chunk vectors, then served by a fresh process
// (bench/serve-child.ts) answering hybrid and vector recalls with real query embeddings: vector search
// P95 warm and peak RSS serving, each beside its goal. deps: bench (peers-scale, workspace-kinds).
import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { hybridGoals, hybridServe, modelFolder, readKept, type Goal } from './peers-scale.js';
import { makeWorkspace } from './workspace-kinds.js';

/**
 * Serve `files` synthetic files (kept in `kept` as `hybrid-synthetic-<files>`, its index beside it)
 * and @returns the hybrid goals; none (said why) without the model or serve-child.mjs.
 */
export function hybridRows(childDir: string, kept: string, files: number, say: (s: string) => void): Goal[] {
  const child = join(childDir, 'serve-child.mjs');
  const model = modelFolder(process.cwd());
  if (!model || !existsSync(child)) {
    say(
      `\nhybrid over ${files} files: not measured (${model ? 'serve-child.mjs not bundled' : 'no model; run npm run setup'})`,
    );
    return [];
  }
  const root = join(kept, `hybrid-synthetic-${files}`);
  if (!readKept(root)) {
    const ws = makeWorkspace('synthetic', root, files, { corpora: '' });
    writeFileSync(join(root, '.bench.json'), JSON.stringify(ws));
  }
  say(`\n## hybrid: ${files.toLocaleString('en-US')} synthetic files, synthetic chunk vectors, real query embeddings`);
  try {
    const h = hybridServe(child, root, `${root}-index`, model, 50);
    say(
      `  ${h.chunks} chunks, ${h.vectors} vectors; ${h.buildMs === undefined ? 'index kept from an earlier run' : `indexed in ${Math.round(h.buildMs / 1000)} s`}; loaded in ${h.loadMs} ms; ` +
        `hybrid recall P50 ${h.recallP50} / P95 ${h.recallP95} ms; vector search P50 ${h.vectorSearchP50} / P95 ${h.vectorSearchP95} ms (CPU ${h.vectorSearchCpuP50} / ${h.vectorSearchCpuP95} ms); peak RSS ${h.peakRssMb} MB`,
    );
    return hybridGoals(h);
  } catch (e) {
    say(`  not measured — ${(e as Error).message}`);
    return [];
  }
}
