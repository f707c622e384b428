// Run the external `qmd` CLI (https://github.com/tobi/qmd) safely: found on PATH without a shell,
// arguments passed as an array, a hard timeout (SIGKILL), bounded output. Never throws: every failure
// is a value the qmd backend turns into a fallback. deps: node:* only.
import { spawn } from 'node:child_process';
import { accessSync, constants, statSync } from 'node:fs';
import { delimiter, isAbsolute, join } from 'node:path';

/** Why a qmd run produced no output to use. */
export type QmdFailure = 'missing' | 'spawn-failed' | 'exit' | 'timeout' | 'overflow';

export type QmdRunResult =
  | { readonly ok: true; readonly stdout: string }
  | { readonly ok: false; readonly reason: QmdFailure; readonly detail: string };

/**
 * Find an executable the way a shell would, without running one: each PATH folder in order (PATHEXT
 * extensions on Windows). An absolute or relative path with a separator is checked as given.
 * @returns the absolute path, or undefined when there is none.
 */
export function findExecutable(name: string, env: NodeJS.ProcessEnv = process.env): string | undefined {
  const win = process.platform === 'win32';
  const exts = win ? ['', ...(env.PATHEXT ?? '.COM;.EXE;.BAT;.CMD').split(';').filter(Boolean)] : [''];
  const usable = (p: string) => {
    try {
      if (!statSync(p).isFile()) return false;
      if (!win) accessSync(p, constants.X_OK);
      return true;
    } catch {
      return false;
    }
  };
  if (name.includes('/') || name.includes('\\')) return isAbsolute(name) && usable(name) ? name : undefined;
  for (const dir of (env.PATH ?? env.Path ?? '').split(delimiter)) {
    if (!dir) continue;
    for (const ext of exts) {
      const p = join(dir, name + ext);
      if (usable(p)) return p;
    }
  }
  return undefined;
}

/**
 * Run `file args…` in `cwd`; kill it (SIGKILL) after `timeoutMs`; stop reading after `maxBytes` of stdout.
 * @returns stdout when it exits 0, else why not.
 */
export function runCommand(
  file: string,
  args: readonly string[],
  options: { cwd: string; timeoutMs: number; env?: NodeJS.ProcessEnv; maxBytes?: number },
): Promise<QmdRunResult> {
  const maxBytes = options.maxBytes ?? 1024 * 1024;
  return new Promise((resolve) => {
    let settled = false;
    const done = (r: QmdRunResult) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve(r);
    };
    let child: ReturnType<typeof spawn>;
    try {
      child = spawn(file, [...args], {
        cwd: options.cwd,
        env: options.env ?? process.env,
        stdio: ['ignore', 'pipe', 'pipe'],
        windowsHide: true,
        shell: false,
      });
    } catch (e) {
      resolve({ ok: false, reason: 'spawn-failed', detail: (e as Error).message });
      return;
    }
    const out: Buffer[] = [];
    let outBytes = 0;
    let err = '';
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      done({ ok: false, reason: 'timeout', detail: `no answer within ${options.timeoutMs} ms` });
    }, options.timeoutMs);
    child.stdout!.on('data', (b: Buffer) => {
      outBytes += b.length;
      if (outBytes > maxBytes) {
        child.kill('SIGKILL');
        done({ ok: false, reason: 'overflow', detail: `more than ${maxBytes} bytes of output` });
        return;
      }
      out.push(b);
    });
    child.stderr!.on('data', (b: Buffer) => {
      if (err.length < 4096) err += b.toString('utf8');
    });
    child.on('error', (e) => done({ ok: false, reason: 'spawn-failed', detail: e.message }));
    child.on('close', (code, signal) => {
      if (code === 0) done({ ok: true, stdout: Buffer.concat(out).toString('utf8') });
      else
        done({
          ok: false,
          reason: 'exit',
          detail: `exited with ${code ?? signal}${err ? `: ${err.trim().slice(0, 300)}` : ''}`,
        });
    });
  });
}
