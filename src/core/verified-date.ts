// Front-matter `verified:` (the day a person last re-checked a memory against the code it cites):
// which values name a day, and the last day that may be claimed (R65: a day still to come would
// hide every change to the code). The rule `memory.code.verified-date` (validate/rules/) reads it.
// Imports nothing.

/**
 * The calendar day (`YYYY-MM-DD`) a `verified:` value names: a date, or the date part of a
 * date-time; undefined for anything else (a word, a number, a list, an impossible day like 02-30).
 */
export function verifiedDay(value: unknown): string | undefined {
  if (typeof value !== 'string') return undefined;
  const m = /^\s*(\d{4})-(\d{2})-(\d{2})(?:$|[T ])/.exec(value);
  if (!m) return undefined;
  const [y, mo, d] = [Number(m[1]), Number(m[2]), Number(m[3])];
  const at = new Date(Date.UTC(y, mo - 1, d));
  return at.getUTCFullYear() === y && at.getUTCMonth() === mo - 1 && at.getUTCDate() === d
    ? `${m[1]}-${m[2]}-${m[3]}`
    : undefined;
}

/**
 * The last day a `verified:` may name and still be a person's word: tomorrow of `today`
 * (`YYYY-MM-DD`, UTC; a day's slack for the time zones). A later day is ignored by the code check.
 */
export function lastVerifiableDay(today: string): string {
  return new Date(Date.parse(`${today}T00:00:00Z`) + 86_400_000).toISOString().slice(0, 10);
}
