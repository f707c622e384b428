// One validation for dates and recall filters, shared by every interface (CLI flags, in-query
// `type:`/`kind:`, MCP arguments, LSP requests, `append --date`), so the same bad input gets the
// same clear error everywhere. deps: core only.
import { DOC_KINDS, ENTRY_TYPES } from '../../core/document.js';
import { MemoryError, shownValue } from '../../core/errors.js';
import { globMatcher } from '../../core/glob.js';

/** @returns true for `YYYY-MM-DD` naming a day that exists (2026-02-30 does not). */
export function isCalendarDate(v: string): boolean {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(v.trim());
  if (!m) return false;
  const d = new Date(Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3])));
  return d.getUTCFullYear() === Number(m[1]) && d.getUTCMonth() + 1 === Number(m[2]) && d.getUTCDate() === Number(m[3]);
}

/**
 * @param name what the value is (`since`, `until`, `date`), as the message names it.
 * @throws MemoryError `usage` unless `value` is a real calendar date as YYYY-MM-DD.
 */
export function checkDate(name: string, value: string): string {
  if (isCalendarDate(value)) return value.trim();
  throw new MemoryError('usage', `${name} must be a real calendar date as YYYY-MM-DD, got ${shownValue(value)}`, {
    data: { field: name, value },
    hint: 'e.g. 2026-11-01 (months 01–12, days that exist in that month)',
  });
}

/**
 * The expected content hash of an optimistic write (`--expect-hash`, MCP `expectedHash`): a
 * {@link contentHash} (64 lowercase hex digits), or null for "the file must not exist" (H09). A
 * malformed value was compared as it was and answered as a concurrent change (`fs.conflict`).
 * @param name what the value is called where it was given, as the message names it.
 * @throws MemoryError `usage` for anything else.
 */
export function checkExpectedHash(name: string, value: string | null | undefined): void {
  if (value === undefined || value === null) return;
  if (typeof value === 'string' && /^[0-9a-f]{64}$/.test(value)) return;
  throw new MemoryError(
    'usage',
    `${name} takes a 64-digit hex content hash or "none", got ${shownValue(String(value))}`,
    {
      data: { field: name, value },
      hint: 'pass the hash a read returned (`gitmem state snapshot --json`, or the write before)',
    },
  );
}

/**
 * Check recall filters after flags and in-query filters are merged.
 * @throws MemoryError `usage`: an unknown type or kind (in-query `type:bogus` as much as `--type`),
 *   a date that is not a real day, or `since` later than `until`.
 */
export function checkRecallFilters(f: {
  types?: readonly string[];
  kinds?: readonly string[];
  since?: string | undefined;
  until?: string | undefined;
}): void {
  for (const t of f.types ?? []) {
    if (!(ENTRY_TYPES as readonly string[]).includes(t)) {
      throw new MemoryError('usage', `unknown memory type "${t}"`, {
        data: { field: 'type', value: t },
        hint: `use one of: ${ENTRY_TYPES.join(', ')}`,
      });
    }
  }
  for (const k of f.kinds ?? []) {
    if (!(DOC_KINDS as readonly string[]).includes(k)) {
      throw new MemoryError('usage', `unknown kind "${k}"`, {
        data: { field: 'kind', value: k },
        hint: `use one of: ${DOC_KINDS.join(', ')}`,
      });
    }
  }
  const since = f.since === undefined ? undefined : checkDate('since', f.since);
  const until = f.until === undefined ? undefined : checkDate('until', f.until);
  if (since && until && since > until) {
    throw new MemoryError('usage', `since (${since}) is after until (${until}), so nothing can match`, {
      data: { since, until },
      hint: `swap them: since ${until}, until ${since}`,
    });
  }
}

/**
 * Check a recall request before any index or model work: its flag filters merged with the in-query
 * `type:` / `kind:` filters (`inQuery`, as the keyword query parser read them), lower-cased as recall
 * applies them. A rejected call has then loaded, built and embedded nothing.
 * @throws MemoryError `usage` as {@link checkRecallFilters}.
 */
export function checkRecallRequest(
  f: {
    types?: readonly string[];
    kinds?: readonly string[];
    since?: string | undefined;
    until?: string | undefined;
    file?: string | undefined;
  },
  inQuery: { readonly type?: readonly string[]; readonly kind?: readonly string[] } = {},
): void {
  // A `--file` glob the matcher refuses (an extglob, too many brace alternatives) is a usage error now,
  // not in the middle of filtering (U48).
  if (f.file) globMatcher(f.file.replace(/^\.\//, ''));
  const lower = (xs: readonly string[] | undefined) => (xs ?? []).map((x) => x.trim().toLowerCase()).filter(Boolean);
  checkRecallFilters({
    types: [...lower(f.types), ...lower(inQuery.type)],
    kinds: [...lower(f.kinds), ...lower(inQuery.kind)],
    since: f.since,
    until: f.until,
  });
}
