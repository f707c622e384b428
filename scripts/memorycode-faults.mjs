#!/usr/bin/env node
// Where MemoryCode's delivered@800B is lost, per question, from a `--dump` file of
// `npm run bench:memorycode -- --mode keyword --dump FILE.jsonl`:
//   node scripts/memorycode-faults.mjs FILE.jsonl [--list CLASS]
// Each current-rule unit (dia_id) not delivered falls in one class: not in the top 10, labelled
// superseded, ranked but not in the block, or in the block but cut below 60 % of its content words.
// Also: rank of the first unit, block bytes left over, per category. Read-only; prints a table.
import { readFileSync } from 'node:fs';

const file = process.argv[2];
const listIdx = process.argv.indexOf('--list');
const list = listIdx > 0 ? process.argv[listIdx + 1] : undefined;
const rows = readFileSync(file, 'utf8')
  .split('\n')
  .filter(Boolean)
  .map((l) => JSON.parse(l));
// The scorer's content words (bench/locomo-score.ts contentWords).
const STOP = new Set(
  'the and for are but not you all any can had her was one our out has him his how its may new now old see two way who did get got let put say she too use that with have this will your from they know want been good much some time very when come here just like long make many more only over such take than them well were what which while would there their about could other into then these also because after where those being should really thing things yeah great going'.split(
    ' ',
  ),
);
const words = (t) => new Set([...t.toLowerCase().matchAll(/\p{L}{3,}/gu)].map((m) => m[0]).filter((w) => !STOP.has(w)));
const blockLines = (block) => {
  const out = new Map();
  let path = '';
  for (const l of block.split('\n')) {
    const m = /^- (\S+)/.exec(l);
    if (m) path = m[1];
    const n = /^(\d+): (.*)$/.exec(l);
    if (n) out.set(`${path}:${n[1]}`, n[2]);
  }
  return out;
};
const inRange = (r, t) => {
  const m = /^(\S+):(\d+)-(\d+)/.exec(r);
  return m && m[1] === t.path && t.line >= +m[2] && t.line <= +m[3];
};
const classes = new Map();
const add = (k, q, extra) => {
  if (!classes.has(k)) classes.set(k, []);
  classes.get(k).push({ q, extra });
};
let firstMiss = 0;
for (const q of rows) {
  const units = [...new Set(q.targets.map((t) => t.dia_id))];
  const bl = blockLines(q.block);
  const bw = words(q.block);
  if (!q.holds) firstMiss++;
  for (const u of units) {
    const ts = q.targets.filter((t) => t.dia_id === u);
    const cov = Math.max(
      ...ts.map((t) => {
        const w = words(t.text.replace(/^\s*[-*]\s+/, ''));
        let n = 0;
        for (const x of w) if (bw.has(x)) n++;
        return w.size ? n / w.size : 0;
      }),
    );
    if (cov >= 0.6) continue;
    const rank = q.ranked.findIndex((r) => ts.some((t) => inRange(r, t)));
    const sup = rank >= 0 && q.ranked[rank].includes(' < ');
    const shown = ts.some((t) => bl.has(`${t.path}:${t.line}`));
    const k = rank < 0 ? 'not-top10' : sup ? 'superseded' : shown ? 'cut' : 'ranked-not-shown';
    add(k, q, {
      unit: u,
      rank,
      cov: cov.toFixed(2),
      bytes: Buffer.byteLength(q.block),
      tlen: Math.max(...ts.map((t) => Buffer.byteLength(t.text))),
    });
  }
}
const byCat = {};
for (const q of rows) {
  const c = (byCat[q.category] ??= { n: 0, d: 0 });
  c.n++;
  c.d += q.delivered;
}
console.log(
  'questions',
  rows.length,
  'delivered',
  (rows.reduce((a, q) => a + q.delivered, 0) / rows.length).toFixed(3),
  'first result misses',
  firstMiss,
);
for (const [c, v] of Object.entries(byCat)) console.log(c, v.n, (v.d / v.n).toFixed(3));
for (const [k, v] of classes) {
  const multi = v.filter((x) => new Set(x.q.targets.map((t) => t.dia_id)).size > 1).length;
  const rankHist = {};
  for (const x of v) rankHist[x.extra.rank] = (rankHist[x.extra.rank] ?? 0) + 1;
  console.log(`${k}: ${v.length} units (${multi} in several-rule questions) ranks ${JSON.stringify(rankHist)}`);
}
if (list)
  for (const x of classes.get(list) ?? []) {
    console.log('\n==', x.q.id, x.q.category, x.q.question, JSON.stringify(x.extra));
    console.log('ranked:', x.q.ranked.join(' | '));
    for (const t of x.q.targets) console.log('T', t.dia_id, `${t.path}:${t.line}`, t.text.slice(0, 300));
    for (const t of x.q.stale) console.log('S', t.dia_id, `${t.path}:${t.line}`, t.text.slice(0, 200));
    console.log(x.q.block);
  }
