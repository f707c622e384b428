// The process start-up line of bench:peers: what one `node -e 0` costs on gitmem's runtime and on
// qmd's, and why they differ (NODE_EXTRA_CA_CERTS on Node 20). deps: node:* only.
import { spawnSync } from 'node:child_process';

function pct(xs: readonly number[], p: number): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor(p * s.length))] ?? NaN;
}

function fmtMs(ms: number): string {
  return ms >= 10_000 ? `${(ms / 1000).toFixed(1)} s` : `${Math.round(ms).toLocaleString('en-US')} ms`;
}

/** Median wall time (ms) of `node -e 0` with `env`, over `n` runs. */
function nodeStartMs(node: string, env: NodeJS.ProcessEnv, n = 9): number {
  const xs: number[] = [];
  for (let i = 0; i < n; i++) {
    const t0 = performance.now();
    spawnSync(node, ['-e', '0'], { env });
    xs.push(performance.now() - t0);
  }
  return pct(xs, 0.5);
}

/**
 * What one process start costs on each runtime, and why they differ: Node 20 parses every root
 * certificate at start-up when NODE_EXTRA_CA_CERTS is set; Node 22 only when a TLS connection needs them.
 */
export function startupLine(peer: string): string {
  const withCa = process.env.NODE_EXTRA_CA_CERTS ? ' (NODE_EXTRA_CA_CERTS set)' : '';
  const noCa = { ...process.env };
  delete noCa.NODE_EXTRA_CA_CERTS;
  const here = nodeStartMs(process.execPath, process.env);
  const there = nodeStartMs(peer, process.env);
  const parts = [
    `process start (\`node -e 0\`, median of 9)${withCa}: gitmem's Node ${process.version} ${fmtMs(here)}, qmd's Node ${fmtMs(there)}`,
  ];
  if (withCa)
    parts.push(`Node ${process.version} without NODE_EXTRA_CA_CERTS ${fmtMs(nodeStartMs(process.execPath, noCa))}`);
  return `${parts.join('; ')}.`;
}
