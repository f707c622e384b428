// The esbuild options every benchmark script bundles its TypeScript entry with: one ESM file for
// Node 20 that can still `require` (createRequire) and knows its own __filename / __dirname, with
// onnxruntime-node left external so it resolves from the repository's node_modules.
// Usage: build({ ...benchBundle, entryPoints: ['bench/x.ts'], outfile })
export const benchBundle = {
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  external: ['onnxruntime-node'],
  logLevel: 'warning',
  banner: {
    js: "import { createRequire as __cr } from 'node:module'; import { fileURLToPath as __tp } from 'node:url'; import { dirname as __dn } from 'node:path'; const require = __cr(import.meta.url); const __filename = __tp(import.meta.url); const __dirname = __dn(__filename);",
  },
};
