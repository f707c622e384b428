// The code-servers of the VS Code end-to-end test (scripts/e2e-vscode.mjs): each in its own process
// group (ended by killing the group, and every group killed when the process exits), with its own
// user data, extensions and settings under the run's temp folder, on 127.0.0.1 with a port the OS picks.
import { spawn } from 'node:child_process';
import { closeSync, mkdirSync, openSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

let RUN;
let OUT;
let T;
let log;
/** The run's temp folder, the artifact folder, the tools (scripts/e2e-vscode-tools.mjs) and the logger. */
export function configureSession(o) {
  RUN = o.run;
  OUT = o.out;
  T = o.tools;
  log = o.log;
}

/**
 * Wait for a condition: `ready()` (sync or async) is asked every `everyMs` ms until it gives a truthy
 * value, which is returned, or until `deadline` (ms since the epoch) has passed: then undefined. A
 * `ready` that throws (the process it waits for has exited, say) ends the wait with its error.
 */
export async function pollUntil(ready, deadline, everyMs = 100) {
  for (;;) {
    const value = await ready();
    if (value) return value;
    if (Date.now() > deadline) return undefined;
    await new Promise((r) => setTimeout(r, everyMs));
  }
}

// ---- process groups: every code-server (and what it starts) is ended by killing its group ----
export const groups = new Set();
const groupAlive = (pgid) => {
  try {
    process.kill(-pgid, 0);
    return true;
  } catch {
    return false;
  }
};
export async function killGroup(pgid) {
  if (!groups.has(pgid)) return;
  try {
    process.kill(-pgid, 'SIGTERM');
  } catch {
    /* already gone */
  }
  const end = Date.now() + 5_000;
  await pollUntil(() => !groupAlive(pgid), end);
  if (groupAlive(pgid)) {
    log(`process group ${pgid} still alive 5 s after SIGTERM: SIGKILL`);
    try {
      process.kill(-pgid, 'SIGKILL');
    } catch {
      /* gone */
    }
  }
  groups.delete(pgid);
}
process.on('exit', () => {
  for (const g of groups) {
    try {
      process.kill(-g, 'SIGKILL');
    } catch {
      /* gone */
    }
  }
});

const SETTINGS = {
  'security.workspace.trust.enabled': false,
  'workbench.startupEditor': 'none',
  'telemetry.telemetryLevel': 'off',
  'extensions.autoCheckUpdates': false,
  'extensions.autoUpdate': false,
  'extensions.ignoreRecommendations': true,
  'workbench.tips.enabled': false,
  'update.mode': 'none',
  'git.enabled': false,
  'workbench.enableExperiments': false,
  'chat.commandCenter.enabled': false,
};

export function codeServerEnv(dir) {
  const env = {
    ...process.env,
    XDG_CONFIG_HOME: join(dir, 'xdg-config'),
    XDG_DATA_HOME: join(dir, 'xdg-data'),
    EXTENSIONS_GALLERY: '{}',
  };
  // Its IPC sockets and vscode-typescript* folders go to the run's temp folder (removed at the end), not
  // to /tmp; only when the socket paths stay well under the 108-byte unix socket limit.
  if (join(dir, 'tmp').length <= 60) env.TMPDIR = join(dir, 'tmp');
  delete env.GITMEM_MODEL_DIR; // as a user's editor: only the model inside the installed .vsix
  delete env.NODE_OPTIONS;
  delete env.VSCODE_IPC_HOOK_CLI;
  return env;
}

export function codeServerArgs(dir) {
  return [
    '--config',
    join(dir, 'config.yaml'),
    '--user-data-dir',
    join(dir, 'data'),
    '--extensions-dir',
    join(dir, 'exts'),
  ];
}

export function prepareServerDir(name) {
  const dir = join(RUN, name);
  for (const d of ['data/User', 'exts', 'xdg-config', 'xdg-data', 'tmp']) mkdirSync(join(dir, d), { recursive: true });
  writeFileSync(join(dir, 'data', 'User', 'settings.json'), JSON.stringify(SETTINGS, null, 2));
  return dir;
}

/** Start code-server in its own process group on 127.0.0.1 with a port the OS picks; resolves to its base URL. */
export async function startCodeServer(name, dir, folder) {
  const logFile = join(OUT, `code-server-${name}.log`);
  const fd = openSync(logFile, 'w');
  const child = spawn(
    T.codeServer,
    [
      ...codeServerArgs(dir),
      '--auth',
      'none',
      '--bind-addr',
      '127.0.0.1:0',
      '--disable-telemetry',
      '--disable-update-check',
      '--disable-workspace-trust',
      '--disable-getting-started-override',
      folder,
    ],
    { detached: true, stdio: ['ignore', fd, fd], env: codeServerEnv(dir) },
  );
  closeSync(fd);
  groups.add(child.pid);
  let exited = false;
  child.on('exit', () => (exited = true));
  const end = Date.now() + 60_000;
  const url = await pollUntil(() => {
    const m = /HTTP server listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(readFileSync(logFile, 'utf8'));
    if (!m && exited) throw new Error(`code-server (${name}) did not start (exited); see ${logFile}`);
    return m?.[1];
  }, end);
  if (!url) throw new Error(`code-server (${name}) did not start within 60 s; see ${logFile}`);
  const healthy = await pollUntil(() => {
    if (exited) throw new Error(`code-server (${name}) /healthz never answered; see ${logFile}`);
    return fetch(`${url}/healthz`).then(
      (r) => r.ok,
      () => false,
    );
  }, end);
  if (!healthy) throw new Error(`code-server (${name}) /healthz never answered; see ${logFile}`);
  log(`code-server (${name}) listening on ${url}, process group ${child.pid}`);
  return { url, pgid: child.pid };
}
