/** Document 2, imports: not yet implemented. */
import type { AreaModule } from '../area.js';

export type ImportsState = Record<string, never>;

export const importsArea: AreaModule<ImportsState> = {
  area: 'imports',
  faults: [],
  createState: () => ({}),
  handlers: {},
};
