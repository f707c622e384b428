// Assembles the WebAssembly kernels of the vector table from their WAT sources
// (src/indexes/vector/scores.wat, idots.wat) with wabt, SIMD on, and checks that the bytes
// src/indexes/vector/vector-kernel.ts embeds (base64 constants) are exactly those.
// Usage: node scripts/build-kernels.mjs          check: exit 1 when a constant differs from its WAT
//        node scripts/build-kernels.mjs --write  replace the constants by the assembled bytes
// Needs the dev dependency wabt (exit 2 with the install line when it is missing).
import { readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const KERNEL_TS = join(root, 'src/indexes/vector/vector-kernel.ts');
/** Each kernel: its WAT source and the constant in vector-kernel.ts that embeds its bytes. */
const KERNELS = [
  { wat: 'src/indexes/vector/scores.wat', constant: 'SCORES_WASM' },
  { wat: 'src/indexes/vector/idots.wat', constant: 'DOTS_WASM' },
];

let wabtInit;
try {
  wabtInit = (await import('wabt')).default;
} catch {
  console.error('build-kernels: the wabt package is not installed (npm install --save-dev wabt@1.0.39)');
  process.exit(2);
}
const wabt = await wabtInit();
const write = process.argv.includes('--write');

/** The base64 of the module assembled from `file` (no names section: the bytes the code embeds). */
function assemble(file) {
  const mod = wabt.parseWat(file, readFileSync(join(root, file), 'utf8'), { simd: true });
  try {
    mod.resolveNames();
    mod.validate();
    return Buffer.from(mod.toBinary({ log: false, write_debug_names: false }).buffer).toString('base64');
  } finally {
    mod.destroy();
  }
}

let ts = readFileSync(KERNEL_TS, 'utf8');
let differ = 0;
for (const { wat, constant } of KERNELS) {
  const re = new RegExp(`(const ${constant} =\\s*')([A-Za-z0-9+/=]+)(')`);
  const m = re.exec(ts);
  if (!m) throw new Error(`build-kernels: ${constant} not found in ${KERNEL_TS}`);
  const built = assemble(wat);
  const bytes = Buffer.from(built, 'base64').length;
  if (m[2] === built) console.log(`${constant}: ${bytes} bytes, as assembled from ${wat}`);
  else if (write) {
    ts = ts.replace(re, `$1${built}$3`);
    console.log(`${constant}: replaced by the ${bytes} bytes assembled from ${wat}`);
  } else {
    differ++;
    console.error(`${constant}: differs from ${wat} assembled (${bytes} bytes); run with --write`);
  }
}
if (write) writeFileSync(KERNEL_TS, ts);
process.exit(differ ? 1 : 0);
