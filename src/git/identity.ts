// Who a checkpoint is by. isomorphic-git reads only the repo-local config and fails with
// MissingNameError without it (B22), so we resolve the identity ourselves, in git's order:
// explicit option → GIT_AUTHOR_NAME/EMAIL → repo config → global config ($GIT_CONFIG_GLOBAL, else
// $XDG_CONFIG_HOME/git/config and ~/.gitconfig) → the documented fallback `gitmem <gitmem@localhost>`.
// deps: core, isomorphic-git (through repo.ts), node:fs/os/path.
import { readFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { git, type GitRepo } from './repo.js';

/** The identity used when no git user is configured anywhere (B22). Documented in the README. */
export const FALLBACK_AUTHOR = { name: 'gitmem', email: 'gitmem@localhost' } as const;

export interface GitIdentity {
  readonly name: string;
  readonly email: string;
}

export type IdentitySource = 'option' | 'env' | 'repo-config' | 'global-config' | 'fallback';

/** Environment view used for identity lookup (injectable for tests). */
export interface IdentityEnv {
  readonly env?: Readonly<Record<string, string | undefined>>;
  readonly home?: string;
}

/**
 * Resolve the author. Name and email are looked up independently, so a config with only `user.name`
 * still gets the fallback email rather than failing.
 */
export async function resolveIdentity(
  repo: GitRepo,
  explicit: Partial<GitIdentity> | undefined,
  where: IdentityEnv = {},
): Promise<GitIdentity & { source: IdentitySource }> {
  const env = where.env ?? process.env;
  const candidates: Array<{ source: IdentitySource; name?: string; email?: string }> = [];
  if (explicit) candidates.push({ source: 'option', ...clean(explicit) });
  candidates.push({ source: 'env', ...clean({ name: env.GIT_AUTHOR_NAME, email: env.GIT_AUTHOR_EMAIL }) });
  const repoName = await git.getConfig({ fs: repo.fs, gitdir: repo.gitdir, path: 'user.name' }).catch(() => undefined);
  const repoEmail = await git
    .getConfig({ fs: repo.fs, gitdir: repo.gitdir, path: 'user.email' })
    .catch(() => undefined);
  candidates.push({ source: 'repo-config', ...clean({ name: str(repoName), email: str(repoEmail) }) });
  candidates.push({ source: 'global-config', ...globalUser(env, where.home) });
  candidates.push({ source: 'fallback', ...FALLBACK_AUTHOR });
  const nameFrom = candidates.find((c) => c.name)!;
  const emailFrom = candidates.find((c) => c.email)!;
  return { name: nameFrom.name!, email: emailFrom.email!, source: nameFrom.source };
}

const str = (v: unknown) => (typeof v === 'string' ? v : undefined);

function clean(x: { name?: string | undefined; email?: string | undefined }): { name?: string; email?: string } {
  const name = x.name?.replace(/[<>\n\r]/g, '').trim();
  const email = x.email?.replace(/[<>\n\r]/g, '').trim();
  return { ...(name ? { name } : {}), ...(email ? { email } : {}) };
}

/** `[user] name/email` from the global config files git would read. */
function globalUser(
  env: Readonly<Record<string, string | undefined>>,
  home: string | undefined,
): { name?: string; email?: string } {
  const h = home ?? env.HOME ?? homedir();
  const files = env.GIT_CONFIG_GLOBAL
    ? [env.GIT_CONFIG_GLOBAL]
    : [join(env.XDG_CONFIG_HOME || join(h, '.config'), 'git', 'config'), join(h, '.gitconfig')];
  let found: { name?: string; email?: string } = {};
  for (const f of files) {
    let text: string;
    try {
      text = readFileSync(f, 'utf8');
    } catch {
      continue;
    }
    // Later files win, as in git.
    found = { ...found, ...clean(parseUserSection(text)) };
  }
  return found;
}

/** Minimal git-config reader for the `[user]` section (enough for identity; no includes). */
function parseUserSection(text: string): { name?: string; email?: string } {
  let section = '';
  const out: { name?: string; email?: string } = {};
  for (const raw of text.split(/\r?\n/)) {
    const line = raw.replace(/(^|\s)[#;].*$/, '').trim();
    if (!line) continue;
    const sec = /^\[\s*([A-Za-z0-9.-]+)(?:\s+"[^"]*")?\s*\]$/.exec(line);
    if (sec) {
      section = sec[1]!.toLowerCase();
      continue;
    }
    if (section !== 'user') continue;
    const kv = /^([A-Za-z][A-Za-z0-9-]*)\s*=\s*(.*)$/.exec(line);
    if (!kv) continue;
    const value = kv[2]!.replace(/^"(.*)"$/, '$1');
    const key = kv[1]!.toLowerCase();
    if (key === 'name') out.name = value;
    else if (key === 'email') out.email = value;
  }
  return out;
}
