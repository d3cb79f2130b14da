/**
 * The process's exit codes (docs/design.md section 3), one list for every command that ends the
 * process (the server, backfill): scripts and the tests read them.
 */

/** Done, or a probe whose key and clusters all answered. */
export const EXIT_OK = 0;
/** Anything else: a refused key or cluster, a failed target, an interrupted run. */
export const EXIT_FAILURE = 1;
/** Bad config or arguments: a message, never a stack trace. */
export const EXIT_USAGE = 2;
