// Counts the source modules one CLI `gitmem recall` runs through, and the import edges between
// them that the call uses (a module's import of another whose code ran during the call). The
// sources are transpiled one file per module (esbuild, no bundling) into a temporary folder so
// module boundaries stay visible; a small workspace is indexed by a first recall, then V8's precise
// coverage records which functions run during a second one (a typical warm one-shot recall).
// Usage: node scripts/recall-path.mjs [--mode keyword|hybrid] [--list]   (prints JSON)
import { build } from 'esbuild';
import {
  mkdtempSync,
  mkdirSync,
  readFileSync,
  readdirSync,
  rmSync,
  statSync,
  symlinkSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import { Session } from 'node:inspector/promises';
import { tmpdir } from 'node:os';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const repo = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const args = process.argv.slice(2);
const mode = args.includes('--mode') ? args[args.indexOf('--mode') + 1] : 'hybrid';
const list = args.includes('--list');

function walk(d, out = []) {
  for (const n of readdirSync(d)) {
    const p = join(d, n);
    if (statSync(p).isDirectory()) walk(p, out);
    else if (n.endsWith('.ts') || n.endsWith('.js')) out.push(p);
  }
  return out;
}

const tmp = mkdtempSync(join(tmpdir(), 'gitmem-recall-path-'));
try {
  const sources = walk(join(repo, 'src'));
  await build({
    entryPoints: sources,
    outdir: join(tmp, 'src'),
    outbase: join(repo, 'src'),
    format: 'esm',
    platform: 'node',
    target: 'node20',
    supported: { 'import-attributes': true },
    bundle: false,
    logLevel: 'error',
  });
  // Probes along the path: the full CLI's start, the config and index loads, the scan, the keyword
  // scorer, the query embedding, the vector search, the snippet and the printed answer. Each records the stack (with async frames) that reached it.
  const fn = (name) => new RegExp(`^(export )?(async )?function ${name}\\(.*\\) \\{$`, 'm');
  const method = (name) => new RegExp(`^ {2}(async )?${name}\\(.*\\) \\{$`, 'm');
  const PROBES = [
    // The full CLI's start: its stack holds the entry's call into it (a thin entry's promise
    // callback; none when cli/main.ts is the entry itself). Listed as missing in a tree whose thin
    // entry runs the recall itself: the full CLI does not start then.
    ['cli/main.js', fn('main'), 'start'],
    ['engine/load/load.js', fn('loadConfig'), 'open: config'],
    ['indexes/manifest/store.js', fn('loadIndex'), 'open: saved index'],
    ['engine/load/load.js', fn('readWorkspace'), 'scan: read files'],
    ['engine/freshness/sync.js', fn('diffStates'), 'scan: diff'],
    // Trees before the scorer split (issue #18's starting point) scored inside LexicalIndex.search.
    ['indexes/lexical/lexical-scorer.js', fn('searchWith'), 'keyword', ['indexes/lexical.js', method('search')]],
    ['indexes/embed/onnx-embedder.js', method('embed'), 'embed query'],
    ['indexes/vector/vector.js', method('topK'), 'vector'],
    ['indexes/evidence/snippet.js', fn('makeSnippet'), 'snippet'],
    ['cli/output.js', fn('printJson'), 'output'],
  ];
  // A probe's function may live in another module in an older or newer tree: then the first
  // module that defines it is probed.
  const transpiled = walk(join(tmp, 'src'), []).filter((f) => f.endsWith('.js'));
  const defines = (f, re) => {
    try {
      return re.test(readFileSync(f, 'utf8'));
    } catch {
      return false;
    }
  };
  for (const [file, first, name, older] of PROBES) {
    const named = join(tmp, 'src', file);
    let re = first;
    let p = [named, ...transpiled].find((f) => defines(f, re));
    // An older tree: the probe's earlier home (one module, named), when no module defines it now.
    if (!p && older && defines(join(tmp, 'src', older[0]), older[1])) [p, re] = [join(tmp, 'src', older[0]), older[1]];
    if (!p) throw new Error(`probe ${name}: no module defines it`);
    const text = readFileSync(p, 'utf8');
    writeFileSync(
      p,
      text.replace(re, (m) => `${m} globalThis.__recallPathProbe?.(${JSON.stringify(name)});`),
    );
  }
  // JSON imports, schemas, packages and the model resolve next to the transpiled tree as in the repository.
  for (const f of readdirSync(join(repo, 'src'), { recursive: true }).map(String))
    if (f.endsWith('.json')) writeFileSync(join(tmp, 'src', f), readFileSync(join(repo, 'src', f)));
  for (const link of ['schemas', 'node_modules', 'models', 'package.json'])
    symlinkSync(join(repo, link), join(tmp, link));

  const ws = join(tmp, 'ws');
  mkdirSync(join(ws, 'memory'), { recursive: true });
  writeFileSync(
    join(ws, 'memory', 'MEMORY.md'),
    '# Memory\n\n## Decisions\n\n- We deploy with blue-green releases behind the load balancer.\n- The staging database is Postgres 14.\n',
  );
  writeFileSync(join(ws, 'memory', 'notes.md'), '# Notes\n\nThe release checklist lives in the wiki.\n');
  // Files saved a minute ago: a file written within the stat walk's racy window (core/ports.ts
  // RACY_MS) is re-read and diffed by the next call, so without this the measured warm recall would
  // reach the manifest diff or not depending on how fast the first one ran.
  const past = new Date(Date.now() - 60_000);
  for (const f of ['MEMORY.md', 'notes.md']) utimesSync(join(ws, 'memory', f), past, past);

  const { main, buildProgram } = await import(pathToFileURL(join(tmp, 'src', 'cli', 'main.js')).href);
  const argv = ['recall', 'how do we deploy releases', '--dir', ws, '--json', '--mode', mode];
  // The call starts where `gitmem` (dist/cli.cjs) starts: the module scripts/build.mjs bundles as
  // cli.js. A thin entry (cli/bin.ts) runs on import with process.argv and sets process.exitCode
  // when done; it is evaluated anew (a query string) for each call, its imports stay loaded (warm).
  const buildScript = readFileSync(join(repo, 'scripts', 'build.mjs'), 'utf8');
  // (dist/cli.cjs itself only compiles dist/cli-bundle.cjs with its code cache: the bundle's entry counts.)
  const entry =
    /entryPoints:\s*\['src\/([^']+)\.ts'\],\s*outfile:\s*'dist\/cli-bundle\.cjs'/.exec(buildScript)?.[1] ??
    /\bcli:\s*'src\/([^']+)\.ts'/.exec(buildScript)?.[1] ??
    /entryPoints:\s*\['src\/([^']+)\.ts'\],\s*outfile:\s*'dist\/cli\.js'/.exec(buildScript)?.[1];
  if (!entry) throw new Error('scripts/build.mjs: no entry for dist/cli.cjs found');
  let runs = 0;
  const runEntry = async () => {
    if (entry === 'cli/main') return main(argv);
    const file = join(tmp, 'src', `${entry}.js`);
    const saved = process.argv;
    process.argv = [process.execPath, file, ...argv];
    process.exitCode = undefined;
    try {
      await import(`${pathToFileURL(file).href}?call=${++runs}`);
      while (process.exitCode === undefined) await new Promise((r) => setTimeout(r, 2));
      return process.exitCode;
    } finally {
      process.argv = saved;
      process.exitCode = undefined;
    }
  };
  const quiet = (fn) => async () => {
    const w = process.stdout.write;
    process.stdout.write = () => true;
    try {
      return await fn();
    } finally {
      process.stdout.write = w;
    }
  };
  const first = await quiet(runEntry)();
  if (first !== 0) throw new Error(`first recall exited ${first}`);

  const session = new Session();
  session.connect();
  await session.post('Profiler.enable');
  await session.post('Profiler.startPreciseCoverage', { callCount: true, detailed: false });
  const counts = async (fn) => {
    await session.post('Profiler.takePreciseCoverage'); // resets the counters
    const r = await fn();
    const { result } = await session.post('Profiler.takePreciseCoverage');
    return { r, result };
  };
  // Building the program (registering every command) runs on each CLI call; it is not the recall
  // path, so its calls are subtracted function by function.
  const setup = await counts(async () => buildProgram());
  const stacks = new Map();
  Error.stackTraceLimit = Infinity;
  globalThis.__recallPathProbe = (name) => {
    if (!stacks.has(name)) stacks.set(name, new Error().stack);
  };
  const call = await counts(quiet(runEntry));
  delete globalThis.__recallPathProbe;
  await session.post('Profiler.stopPreciseCoverage');
  session.disconnect();
  if (call.r !== 0) throw new Error(`recall exited ${call.r}`);

  const srcUrl = pathToFileURL(join(tmp, 'src')).href + '/';
  const key = (script, f) => `${script.url}#${f.functionName}@${f.ranges[0].startOffset}`;
  const setupCounts = new Map();
  for (const script of setup.result)
    for (const f of script.functions) setupCounts.set(key(script, f), f.ranges[0].count);
  /** module (relative to src/, .ts) → functions that ran for the recall itself */
  const ran = new Map();
  for (const script of call.result) {
    if (!script.url.startsWith(srcUrl)) continue;
    const mod = script.url.slice(srcUrl.length).replace(/\?.*$/, '').replace(/\.js$/, '.ts');
    const fns = script.functions.filter(
      (f) => f.functionName !== '' && f.ranges[0].count - (setupCounts.get(key(script, f)) ?? 0) > 0,
    );
    if (fns.length)
      ran.set(
        mod,
        fns.map((f) => f.functionName),
      );
  }
  // Edges: a module that ran importing (at run time, not `import type`) another that ran.
  const edges = [];
  for (const mod of ran.keys()) {
    const text = readFileSync(join(repo, 'src', mod), 'utf8');
    const re = /^(?:import|export)\s+(?!type\b)[^;]*?from\s*'(\.[^']+)'|import\(\s*'(\.[^']+)'\s*\)/gm;
    const seen = new Set();
    for (const m of text.matchAll(re)) {
      const spec = m[1] ?? m[2];
      const target = relative(join(repo, 'src'), resolve(join(repo, 'src', mod, '..'), spec)).replace(/\.js$/, '.ts');
      if (ran.has(target) && !seen.has(target)) {
        seen.add(target);
        edges.push(`${mod} → ${target}`);
      }
    }
  }
  const byLayer = {};
  for (const mod of ran.keys()) {
    const layer = mod.startsWith('service/') ? 'service' : mod.split('/')[0].replace(/\.ts$/, '');
    byLayer[layer] = (byLayer[layer] ?? 0) + 1;
  }
  // The path: the frames of src/ on the stacks that reached the probes (a frame = module + function).
  const frames = new Set();
  const pathModules = new Set();
  const stackOf = {};
  for (const [name, stack] of stacks) {
    const mine = [];
    for (const line of stack.split('\n').slice(2)) {
      // `at [async ]fn (file:…:l:c)`, or `at [async ]file:…:l:c` for an anonymous function (the
      // thin entry's promise callbacks); a module URL may carry a query (the entry's ?call=n).
      const m = /at (?:async )?(?:(.*?) \()?(file:\/\/[^)?]*?)(?:\?[^):]*)?:\d+:\d+\)?$/.exec(line.trim());
      if (!m || !m[2].startsWith(srcUrl)) continue;
      const mod = m[2].slice(srcUrl.length).replace(/\.js$/, '.ts');
      const fn = (m[1] ?? '<anonymous>').replace(/^(Object|Array|Promise)\./, '');
      mine.push(`${mod}:${fn}`);
      frames.add(`${mod}:${fn}`);
      pathModules.add(mod);
    }
    stackOf[name] = mine.reverse();
  }
  // A hop is a call from one module into another along a stack (deduplicated across the stacks).
  const hopSet = new Set();
  for (const st of Object.values(stackOf))
    for (let i = 1; i < st.length; i++) {
      const a = st[i - 1].split(':')[0];
      const b = st[i].split(':')[0];
      if (a !== b) hopSet.add(`${st[i - 1]} → ${st[i]}`);
    }
  const hops = hopSet.size;
  const missing = PROBES.map((p) => p[2]).filter((n) => !stacks.has(n));
  const service = [...pathModules].filter((m) => m.startsWith('service/')).length;
  const out = {
    mode,
    entry: `src/${entry}.ts`,
    path: {
      hops,
      frames: frames.size,
      modules: pathModules.size,
      serviceModules: service,
      ...(missing.length ? { missing } : {}),
    },
    touched: { modules: ran.size, edges: edges.length, byLayer },
  };
  if (list) Object.assign(out, { stacks: stackOf, hopList: [...hopSet] });
  if (args.includes('--touched'))
    Object.assign(out, { moduleList: Object.fromEntries([...ran].sort()), edgeList: edges.sort() });
  process.stdout.write(`${JSON.stringify(out, null, 2)}\n`);
} finally {
  rmSync(tmp, { recursive: true, force: true });
}
