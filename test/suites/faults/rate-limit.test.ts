import { describeFaultGroup } from '../../helpers/sensitivity.js';

describeFaultGroup('rate-limit');
