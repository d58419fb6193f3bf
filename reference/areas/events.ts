/** Document 1, events: not yet implemented. */
import type { AreaModule } from '../area.js';

export type EventsState = Record<string, never>;

export const eventsArea: AreaModule<EventsState> = {
  area: 'events',
  faults: [],
  createState: () => ({}),
  handlers: {},
};
