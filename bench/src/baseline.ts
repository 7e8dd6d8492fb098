/**
 * `npm run bench -- --baseline <dir>` (see run.ts): the name prefix of a
 * contender that times the older urikit build, so that the harness can head
 * the section apart. In a module of its own: a suite must not import a
 * value from run.ts, whose top-level await is still running while it
 * imports the suites.
 */
export const BASELINE_PREFIX = 'urikit before: ';
