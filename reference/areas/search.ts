/** Document 1, search: not yet implemented. */
import type { AreaModule } from '../area.js';

export type SearchState = Record<string, never>;

export const searchArea: AreaModule<SearchState> = {
  area: 'search',
  faults: [],
  createState: () => ({}),
  handlers: {},
};
