/** Enumerations and fixed strings the spec states. */

/** HTTP methods the spec's endpoints and permission matrix use. */
export type Method = 'GET' | 'PUT' | 'PATCH' | 'DELETE' | 'POST';

/** Document 1, "Reasons". */
export const NOTIFICATION_REASONS = [
  'assign', 'author', 'comment', 'ci_activity', 'invitation', 'manual', 'mention',
  'review_requested', 'security_alert', 'state_change', 'subscribed', 'team_mention',
] as const;
export type NotificationReason = (typeof NOTIFICATION_REASONS)[number];

/** Document 2, "Code scanning alert". */
export const ALERT_STATES = ['open', 'dismissed', 'fixed'] as const;
export type AlertState = (typeof ALERT_STATES)[number];
/** States a PATCH may set. */
export const ALERT_PATCH_STATES = ['open', 'dismissed'] as const;
/** Non-null dismissal reasons. */
export const DISMISSED_REASONS = ['false positive', "won't fix", 'used in tests'] as const;
export type DismissedReason = (typeof DISMISSED_REASONS)[number];

/** Document 2, "Import status". */
export const IMPORT_STATUSES = [
  'detecting', 'importing', 'mapping', 'pushing', 'complete', 'auth_failed', 'error',
  'detection_needs_auth', 'detection_found_nothing', 'detection_found_multiple',
] as const;
export type ImportStatus = (typeof IMPORT_STATUSES)[number];
/** The happy path, in order, with no state skipped. */
export const IMPORT_PROGRESSION = ['detecting', 'importing', 'mapping', 'pushing', 'complete'] as const;
/** Statuses an import moves on from by itself (detection, raw step, rewrite and push end): the happy path before complete. */
export const IMPORT_RUNNING: readonly string[] = IMPORT_PROGRESSION.filter((s) => s !== 'complete');
/** Statuses an import rests in until something is done to it: every other. */
export const IMPORT_RESTING: readonly string[] = IMPORT_STATUSES.filter((s) => !IMPORT_RUNNING.includes(s));
/** Statuses before the source-control type is known ("detection identifies the source-control type"). */
export const IMPORT_UNDETECTED: readonly string[] = ['detecting', 'detection_needs_auth', 'detection_found_nothing', 'detection_found_multiple'];
/** use_lfs values in records; samples also show a boolean. */
export const USE_LFS_VALUES = ['opt_in', 'opt_out', 'undecided'] as const;

/** Document 1, "Versioning". */
export const API_VERSIONS = ['2022-11-28', '2026-03-10'] as const;

/** Document 1: the search-specific 422 message. */
export const VALIDATION_FAILED = 'Validation failed';
