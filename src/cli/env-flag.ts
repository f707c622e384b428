// The one reading of an on/off environment variable (GITMEM_NO_HOST, GITMEM_HOST_AUTOSTART): set to
// anything but empty, `0` or `false` (any case) is on. Imports nothing: the process entry uses it.

/** Whether the environment variable `name` is set to something other than empty, `0` or `false`. */
export function envFlag(name: string): boolean {
  const v = process.env[name];
  return v !== undefined && v !== '' && v !== '0' && v.toLowerCase() !== 'false';
}
