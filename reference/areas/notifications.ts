/** Document 1, notifications: not yet implemented. */
import type { AreaModule } from '../area.js';

export type NotificationsState = Record<string, never>;

export const notificationsArea: AreaModule<NotificationsState> = {
  area: 'notifications',
  faults: [],
  createState: () => ({}),
  handlers: {},
};
