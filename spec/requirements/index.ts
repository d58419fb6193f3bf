/** Every requirement id, with its level and quoted sentence. Ids are stable: reports and baselines refer to them. */
import { CODE_SCANNING } from './code-scanning.js';
import { CONVENTIONS } from './conventions.js';
import { EVENTS } from './events.js';
import { IMPORTS } from './imports.js';
import { NOTIFICATIONS } from './notifications.js';
import { PERMISSIONS } from './permissions.js';
import { RESOURCES } from './resources.js';
import { SEARCH } from './search.js';
import type { Requirement } from './types.js';

export type { Requirement } from './types.js';

export const REQUIREMENTS: readonly Requirement[] = [...CONVENTIONS, ...RESOURCES, ...SEARCH, ...NOTIFICATIONS, ...EVENTS, ...CODE_SCANNING, ...IMPORTS, ...PERMISSIONS];

export function requirement(id: string): Requirement {
  const found = REQUIREMENTS.find((r) => r.id === id);
  if (!found) throw new Error(`unknown requirement id ${id}`);
  return found;
}
