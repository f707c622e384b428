// A write that failed because the disk (or the user's quota) is full: how to tell, and what to say.
// Before, a full disk was reported like a permission problem ("make that folder writable").
// Imports nothing (core).

/** Node error codes and system messages that mean "no space left" (ENOSPC) or "over quota" (EDQUOT). */
const FULL = /\b(?:ENOSPC|EDQUOT)\b|no space left on device|disk quota exceeded/i;

/**
 * @param e a node error (its `code`), an error wrapping one (`cause`), or an error message.
 * @returns true when it says the disk or the user's quota is full.
 */
export function isDiskFull(e: unknown): boolean {
  for (let x = e, depth = 0; x !== undefined && x !== null && depth < 5; depth++) {
    if (typeof x === 'string') return FULL.test(x);
    if (typeof x !== 'object') return false;
    const { code, message, cause } = x as { code?: unknown; message?: unknown; cause?: unknown };
    if ((typeof code === 'string' && FULL.test(code)) || (typeof message === 'string' && FULL.test(message)))
      return true;
    x = cause;
  }
  return false;
}

/** The message tail for a full disk: `the disk is full (ENOSPC)`. */
export const DISK_FULL = 'the disk is full (ENOSPC: no space left on device)';

/** The hint for a write refused by a full disk holding `folder`. Nothing was changed. */
export function diskFullHint(folder: string): string {
  return `free some space on the disk that holds ${folder} (\`df -h\` shows it), then run the command again; the files are as they were before it`;
}
