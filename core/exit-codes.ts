/** Documented exit codes; every command uses these and nothing else. */
export const EXIT = {
  ok: 0,
  checkFailed: 1,
  usage: 2,
  unreachable: 3,
  budgetExhausted: 4,
  /** `conformance undo`: a change could not be undone (it stays in the journal). */
  notUndone: 5,
  /** Ctrl-C: the run stopped early, its changes undone and its reports written. */
  interrupted: 130,
} as const;

/** An error a user can act on: printed as one line, never as a stack trace. */
export class UserError extends Error {
  constructor(message: string, readonly exitCode: number = EXIT.usage) {
    super(message);
  }
}
