import { describeFaultGroup } from '../../helpers/sensitivity.js';

describeFaultGroup('imports');
