// Labelled goal/result/feedback examples for the ACE classifier (docs/DESIGN.md §6), written for the tests:
// seven or more per memory type, phrased the way agents and reviewers actually write. The test
// reports accuracy over the whole table and asserts at least 85 %.
import type { EntryType } from '../../../src/core/document.js';

export interface LabelledTask {
  readonly goal: string;
  readonly result: string;
  readonly feedback?: string;
  readonly type: EntryType;
}

export const LABELLED: readonly LabelledTask[] = [
  // ---- error_fix
  {
    type: 'error_fix',
    goal: 'Fix the failing checkout test on CI',
    result: 'The test relied on the local time zone; pinned TZ=UTC in the vitest config and it passes now.',
  },
  {
    type: 'error_fix',
    goal: 'Users get a 500 when uploading avatars larger than 1 MB',
    result: 'The body parser limit was 1 MB; raised it to 10 MB for the upload route only. Uploads work again.',
    feedback: 'Confirmed in staging, thanks.',
  },
  {
    type: 'error_fix',
    goal: 'Resolve TypeError: Cannot read properties of undefined (reading "id") in the order webhook handler',
    result: 'Refund events have no `order` object; added a guard and handle refunds in a separate branch.',
  },
  {
    type: 'error_fix',
    goal: 'Debug why the worker process crashes every night at 02:00',
    result:
      'The cleanup cron and the export job both took the same advisory lock and the worker panicked on timeout. Serialised them; no crash for three nights.',
  },
  {
    type: 'error_fix',
    goal: 'The login page hangs after a password reset',
    result: 'A stale session cookie made the redirect loop forever. Clearing the cookie on reset fixed it.',
  },
  {
    type: 'error_fix',
    goal: 'Repair the broken Docker build',
    result:
      'The base image moved to Node 22 and the native addon failed to compile; pinned node:20-bookworm and the build is green again.',
  },
  {
    type: 'error_fix',
    goal: 'Flaky e2e test for the search page',
    result:
      'Root cause: the test clicked before the debounce settled. Waiting for the network idle event made it stable over 200 runs.',
  },
  // ---- discovery
  {
    type: 'discovery',
    goal: 'Investigate why exports are slow for large accounts',
    result:
      'Found that the export loads every shipment into memory before writing the CSV; accounts over 50k rows take minutes.',
  },
  {
    type: 'discovery',
    goal: 'Find out what the carrier API returns for unknown tracking numbers',
    result: 'It turns out the API answers 200 with an error object in the body instead of a 404.',
  },
  {
    type: 'discovery',
    goal: 'Check whether the payments SDK retries on its own',
    result: 'The SDK silently retries idempotent requests three times with a fixed 1 s delay; this is not in its docs.',
  },
  {
    type: 'discovery',
    goal: 'Profile the dashboard endpoint',
    result: 'Measured p95 at 840 ms; 70 % of it is spent serialising the nested chart data.',
  },
  {
    type: 'discovery',
    goal: 'Look into the spike in S3 costs last month',
    result:
      'The nightly backup job uploads full snapshots instead of deltas since the January change, about 400 GB a day.',
  },
  {
    type: 'discovery',
    goal: 'Why does the FedEx feed show deliveries a day early?',
    result: 'Apparently FedEx sends estimatedDelivery without a time zone and we parsed it as UTC.',
  },
  {
    type: 'discovery',
    goal: 'Explore how much of the test suite runs against the real database',
    result: 'Noticed that 60 of 410 tests hit Postgres; the rest use the in-memory repository.',
  },
  // ---- decision
  {
    type: 'decision',
    goal: 'Choose a queue library for background jobs',
    result: 'Went with BullMQ over Agenda: we already run Redis and it supports rate limiting and repeatable jobs.',
  },
  {
    type: 'decision',
    goal: 'Decide how to store money amounts',
    result: 'Integer cents with an ISO-4217 currency code, never floats. Documented in the ADR.',
  },
  {
    type: 'decision',
    goal: 'Evaluate lunr versus Elasticsearch for the docs search',
    result: 'Settled on lunr: the corpus is small, it must work offline, and we avoid running a cluster.',
  },
  {
    type: 'decision',
    goal: 'Pick the pagination style for the public API',
    result: 'Keyset pagination on (created_at, id) rather than offsets, so deep pages stay fast.',
    feedback: 'Agreed, go with keyset.',
  },
  {
    type: 'decision',
    goal: 'Migrate the config loader',
    result:
      'Switched from dotenv files to a typed config module in favour of validation at start-up; the team agreed to drop .env.local.',
  },
  {
    type: 'decision',
    goal: 'Settle the API versioning approach',
    result: 'We will version in the URL path (/v2/...) instead of headers; breaking changes need a new major path.',
  },
  {
    type: 'decision',
    goal: 'Compare PgBouncer session and transaction pooling for the API',
    result: 'Transaction mode chosen: session mode would need as many server connections as clients.',
  },
  // ---- learning
  {
    type: 'learning',
    goal: 'Speed up the integration test suite',
    result:
      'Running each test file in a transaction that is rolled back cut the suite from 9 to 3 minutes. Lesson: truncating tables between tests was the slow part.',
  },
  {
    type: 'learning',
    goal: 'Try structured logging in the API service',
    result:
      'pino with child loggers per request works better than string concatenation; the request id now appears on every line.',
    feedback: 'Good takeaway, apply it to the worker too.',
  },
  {
    type: 'learning',
    goal: 'Add retries to the webhook sender',
    result:
      'Retries with random jitter stopped the thundering herd. Next time start with jitter instead of fixed back-off.',
  },
  {
    type: 'learning',
    goal: 'Understand why snapshot tests keep churning',
    result:
      'Realised that the snapshots include generated ids; serialising with a stable id replacer made them deterministic.',
  },
  {
    type: 'learning',
    goal: 'Write the first property-based test for the parser',
    result: 'fast-check found two edge cases in an hour. The trick is to shrink inputs by lines, not characters.',
  },
  {
    type: 'learning',
    goal: 'Reduce the Docker image size',
    result:
      'Multi-stage build with a distroless runtime took the image from 1.2 GB to 180 MB; it helps to copy only dist and production node_modules.',
  },
  {
    type: 'learning',
    goal: 'Experiment with incremental TypeScript builds',
    result:
      'Project references with composite builds cut type-check time by half. Worth doing for any package over 50k lines.',
  },
  // ---- warning
  {
    type: 'warning',
    goal: 'Clean up old feature branches on the deploy server',
    result: 'Deleted the merged branches.',
    feedback: 'Never run git clean -fdx on the deploy server: it wipes the uploaded certificates that are not in git.',
  },
  {
    type: 'warning',
    goal: 'Run the data migration for the carriers table',
    result: 'Migration ran, but it locks the table for minutes on production-sized data.',
    feedback: 'Be careful: do not run this migration during business hours, it blocks all writes.',
  },
  {
    type: 'warning',
    goal: 'Rotate the staging database password',
    result: 'Rotated. The old password is still cached by the PgBouncer pool until restart.',
    feedback: 'Avoid rotating without restarting PgBouncer; connections fail for an hour otherwise.',
  },
  {
    type: 'warning',
    goal: 'Bump the ORM to the next major version',
    result:
      'Upgraded. The new version changes cascade deletes to be on by default, which is dangerous for the shipments relation.',
  },
  {
    type: 'warning',
    goal: 'Reset the local queue state',
    result: 'FLUSHALL on the shared Redis would also wipe the session store. Used a key prefix delete instead.',
    feedback: 'Watch out, never FLUSHALL the shared instance.',
  },
  {
    type: 'warning',
    goal: 'Speed up the seed script',
    result:
      'Seeding is faster now. Beware: the script truncates tables without a backup if DATABASE_URL points at production.',
  },
  {
    type: 'warning',
    goal: 'Add a cron to purge expired sessions',
    result:
      'Added the purge. Running it twice in parallel can delete live sessions because of a race in the expiry check; it must not overlap.',
  },
  // ---- codebase_knowledge
  {
    type: 'codebase_knowledge',
    goal: 'Explain how a shipment status update reaches the customer',
    result:
      'Carrier webhooks hit WebhookController, which enqueues a job; StatusWorker updates the row and the notifier module sends the email.',
  },
  {
    type: 'codebase_knowledge',
    goal: 'Where is the rate limiter configured?',
    result: 'It lives in src/http/middleware/rate-limit.ts and reads its limits from config/limits.yaml at start-up.',
  },
  {
    type: 'codebase_knowledge',
    goal: 'Map the authentication flow',
    result:
      'Login goes through AuthController → SessionService → the Redis session store; JWTs are only used for the mobile app, issued in TokenService.',
  },
  {
    type: 'codebase_knowledge',
    goal: 'Document the module layout of the billing package',
    result:
      'billing/ has three layers: api (HTTP handlers), domain (pure invoice rules) and infra (Stripe adapter, repositories).',
  },
  {
    type: 'codebase_knowledge',
    goal: 'Trace what happens when a label is printed',
    result:
      'PrintButton calls /v2/labels, which is handled by LabelService; it renders ZPL and dispatches to the USB print bridge.',
  },
  {
    type: 'codebase_knowledge',
    goal: 'How does the feature flag system work?',
    result:
      'Flags are defined in config/flags.yaml, loaded once at boot by FlagStore, and exposed to the client through /v2/flags.',
  },
  {
    type: 'codebase_knowledge',
    goal: 'Find where migrations are registered',
    result:
      'Migrations are registered in db/migrations/index.ts in numeric order; the runner is the entry point in scripts/migrate.ts.',
  },
  // ---- preference
  {
    type: 'preference',
    goal: 'Open a pull request for the export change',
    result: 'Opened the PR with the migration and the code change together.',
    feedback: 'I prefer one migration per pull request, please split it.',
  },
  {
    type: 'preference',
    goal: 'Write the release notes',
    result: 'Wrote a detailed changelog with emoji headings.',
    feedback: 'Please keep release notes terse, no emoji.',
  },
  {
    type: 'preference',
    goal: 'Add the new service class',
    result: 'Added ShipmentNotifier as a class with static methods.',
    feedback: 'Dana prefers plain functions over classes with static methods in this code base.',
  },
  {
    type: 'preference',
    goal: 'Rename the test helpers',
    result: 'Renamed them to camelCase.',
    feedback: 'From now on always name test files *.test.ts next to the source, not in a separate folder.',
  },
  {
    type: 'preference',
    goal: 'Format the SQL in the repository layer',
    result: 'Reformatted queries.',
    feedback: 'The team likes SQL keywords in upper case and one clause per line; that is our style.',
  },
  {
    type: 'preference',
    goal: 'Write commit messages for the refactor',
    result: 'Wrote multi-line commit messages.',
    feedback: 'The maintainer wants commit summaries in the imperative mood, under 72 characters.',
  },
  {
    type: 'preference',
    goal: 'Answer the question about the retry settings',
    result: 'Gave a long explanation with background.',
    feedback: 'I would rather get short answers with a code pointer first, details after.',
  },
];
