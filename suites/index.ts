/**
 * Every scenario module, in run order (users name a check's suite by its id prefix, core/suite.ts):
 * the search-counting checks come first, so their searches are the ones the schema checks read;
 * the cross-cutting checks follow the schema checks, whose search replies serve as their controls,
 * and precede the writes; the lockout module runs last so no other check is locked out. Around the
 * notification module, whose first polling check starts the polls (src/interference.ts): the event
 * timelines are read before it, as a later read of a polled URL would restart its poll interval, and
 * the searches (no write of the notification module changes them) come after it, during the wait.
 */
import type { Suite } from '../core/suite.js';
import { authSuite } from './auth.js';
import { codeScanningSuite } from './code-scanning.js';
import { conditionalSuite } from './conditional.js';
import { crossCuttingSuite } from './cross-cutting.js';
import { eventsSuite } from './events.js';
import { importsSuite } from './imports.js';
import { lockoutSuite } from './lockout.js';
import { notificationsSuite } from './notifications.js';
import { permissionsSuite } from './permissions.js';
import { rateLimitSuite, searchCountingSuite } from './rate-limit.js';
import { schemaSuite } from './schema.js';
import { searchSuite } from './search.js';
import { versioningSuite } from './versioning.js';

export const SUITES: readonly Suite[] = [
  searchCountingSuite, schemaSuite, crossCuttingSuite, eventsSuite, notificationsSuite, searchSuite, codeScanningSuite, importsSuite, rateLimitSuite, conditionalSuite, authSuite, versioningSuite, permissionsSuite, lockoutSuite,
];
