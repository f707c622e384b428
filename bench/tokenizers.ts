// WordPiece (indexes/embed/wordpiece.ts) against @huggingface/tokenizers over the fixtures' text: id
// equality per chunk-sized text and encode speed, measured alternately in one run (warm-up first).
// Run from the repository root: node scripts/bench-tokenizers.mjs  (needs models/ from `gitmem model setup`; says so when missing).
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { Tokenizer } from '@huggingface/tokenizers';
import { WordPieceTokenizer } from '../src/indexes/embed/wordpiece.js';

const ROOT = process.cwd();
const MODEL = join(ROOT, 'models', 'all-MiniLM-L6-v2-q4');
if (!existsSync(join(MODEL, 'tokenizer.json')) || !existsSync(join(MODEL, 'vocab.txt'))) {
  console.error('models/tokenizer.json or models/vocab.txt is missing: run `gitmem model setup` first');
  process.exit(1);
}

function texts(dir: string, out: string[] = []): string[] {
  for (const name of readdirSync(dir)) {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) texts(p, out);
    else if (/\.(md|txt)$/.test(name)) {
      // Chunk-sized pieces (~1 kB on paragraph boundaries), the unit the embedder encodes.
      let cur = '';
      for (const para of readFileSync(p, 'utf8').split(/\n\s*\n/)) {
        cur += `${para}\n\n`;
        if (cur.length > 1000) {
          out.push(cur);
          cur = '';
        }
      }
      if (cur.trim()) out.push(cur);
    }
  }
  return out;
}

const corpus = texts(join(ROOT, 'fixtures'));
const bytes = corpus.reduce((n, t) => n + Buffer.byteLength(t), 0);
const ours = WordPieceTokenizer.fromVocabText(readFileSync(join(MODEL, 'vocab.txt'), 'utf8'));
const hf = new Tokenizer(
  JSON.parse(readFileSync(join(MODEL, 'tokenizer.json'), 'utf8')),
  JSON.parse(readFileSync(join(MODEL, 'tokenizer_config.json'), 'utf8')),
);

let differ = 0;
for (const t of corpus) {
  const a = ours.encode(t, 256).ids;
  const b = hf.encode(t).ids.slice(0, 255);
  const bb = b.length === 255 && a.length === 256 ? [...b, ours.sepId] : b;
  if (JSON.stringify(a) !== JSON.stringify(bb)) differ++;
}

const runOurs = () => {
  // A fresh tokenizer each round: its word cache would otherwise make later rounds free.
  const tok = WordPieceTokenizer.fromVocabText(readFileSync(join(MODEL, 'vocab.txt'), 'utf8'));
  const t0 = performance.now();
  for (const t of corpus) tok.encode(t, 256);
  return performance.now() - t0;
};
const runHf = () => {
  const t0 = performance.now();
  for (const t of corpus) hf.encode(t);
  return performance.now() - t0;
};
runOurs();
runHf();
const o: number[] = [];
const h: number[] = [];
for (let i = 0; i < 3; i++) {
  o.push(runOurs());
  h.push(runHf());
}
const med = (xs: number[]) => [...xs].sort((a, b) => a - b)[1]!;
console.log(
  JSON.stringify(
    {
      texts: corpus.length,
      kB: Math.round(bytes / 1024),
      idsDiffer: differ,
      oursMs: Number(med(o).toFixed(1)),
      hfMs: Number(med(h).toFixed(1)),
      hfOverOurs: Number((med(h) / med(o)).toFixed(2)),
    },
    null,
    2,
  ),
);
