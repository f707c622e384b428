// Whether a one-shot CLI call may be answered from this language-server session (src/host/): only
// when the session's view of the files is the disk's, i.e. no open document holds unsaved text.
// deps: server (session type).
import type { Session } from './session.js';

/** Why a one-shot call must not be answered from `s` now, or null when it may. */
export async function oneShotDeclines(s: Session, current: () => Session | undefined): Promise<string | null> {
  if (current() !== s || !s.indexed) return 'the language server is (re)opening the workspace';
  for (const p of s.overlay.paths()) {
    const disk = await s.platform.fs.read(p).catch(() => undefined);
    if (disk === undefined || new TextDecoder().decode(disk) !== s.overlay.get(p)) return `unsaved editor text in ${p}`;
  }
  return null;
}
