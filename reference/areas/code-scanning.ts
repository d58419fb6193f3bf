/** Document 2, code-scanning: not yet implemented. */
import type { AreaModule } from '../area.js';

export type CodeScanningState = Record<string, never>;

export const codeScanningArea: AreaModule<CodeScanningState> = {
  area: 'code-scanning',
  faults: [],
  createState: () => ({}),
  handlers: {},
};
