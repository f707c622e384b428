// The atomic replace of a text file: a temporary file in the same folder, fsync, rename, so a crash or
// a full disk leaves the old file whole. write-file-atomic does it, under a temporary name of the
// file's own name plus `.` and up to 10 digits; for a name within 11 bytes of the 255-byte limit of a
// name that temporary name cannot exist (ENAMETOOLONG, B60), so such a file gets a short temporary
// name of its own (`.gitmem-<12 hex>.tmp`, which the walk never indexes) and the same steps: the old
// file's mode is kept, the data fsynced before the rename, the temporary file removed on a failure.
// deps: node:* (and write-file-atomic, loaded on the first write).
import { randomBytes } from 'node:crypto';
import { promises as fsp } from 'node:fs';
import { basename, dirname, join } from 'node:path';

/** Longest file name most file systems take (bytes of UTF-8). */
const NAME_MAX = 255;
/** What write-file-atomic appends to a name for its temporary file: `.` and a uint32 in decimal. */
const TEMP_SUFFIX = 11;

/**
 * Refuse to replace a file that is read-only (no write bit in its mode), as an editor refuses to
 * save one: a rename into its folder would replace it whatever its mode, and as root even a write
 * would (docs/bad-inputs.md R26). @throws an EACCES error that says so.
 */
async function refuseReadOnly(abs: string): Promise<void> {
  const st = await fsp.stat(abs).catch(() => undefined);
  if (!st?.isFile() || (st.mode & 0o222) !== 0) return;
  const mode = (st.mode & 0o777).toString(8).padStart(4, '0');
  throw Object.assign(
    new Error(
      `the file is read-only (mode ${mode}), so it is left as it is; make it writable (chmod u+w) if it should change`,
    ),
    { code: 'EACCES' },
  );
}

/**
 * Replace (or create) `abs` with `text` (UTF-8; bytes as they are) atomically. A read-only file is not replaced.
 * @throws the file system's error (the old file is untouched, no temporary file is left).
 */
export async function writeTextFileAtomic(abs: string, text: string | Uint8Array): Promise<void> {
  await refuseReadOnly(abs);
  if (Buffer.byteLength(basename(abs)) + TEMP_SUFFIX <= NAME_MAX) {
    // Loaded on the first write (index-storage.ts says why).
    const { default: writeFileAtomic } = await import('write-file-atomic');
    await writeFileAtomic(abs, typeof text === 'string' ? text : Buffer.from(text), { encoding: 'utf8', fsync: true });
    return;
  }
  const tmp = join(dirname(abs), `.gitmem-${randomBytes(6).toString('hex')}.tmp`);
  const mode = (await fsp.stat(abs).catch(() => undefined))?.mode;
  let handle: fsp.FileHandle | undefined;
  try {
    handle = await fsp.open(tmp, 'w', mode === undefined ? 0o666 : mode & 0o7777);
    if (mode !== undefined) await handle.chmod(mode & 0o7777); // the umask does not narrow a kept mode
    await handle.writeFile(text);
    await handle.sync();
    await handle.close();
    handle = undefined;
    await fsp.rename(tmp, abs);
  } catch (e) {
    await handle?.close().catch(() => undefined);
    await fsp.rm(tmp, { force: true }).catch(() => undefined);
    throw e;
  }
}
