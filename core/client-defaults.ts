/** The client's defaults that flags change, apart from the client: parsing the flags loads no HTTP stack. */

/** Defaults of --max-wait and --max-total-wait: a one-minute rate-limit window or poll interval is waited out, a day is not. */
export const DEFAULT_MAX_WAIT_S = 90;
export const DEFAULT_MAX_TOTAL_WAIT_S = 300;

/** Default of the whole time one exchange may take (--total-timeout). */
export const TOTAL_TIMEOUT_MS = 60_000;
