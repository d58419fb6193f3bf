import { describeFaultGroup } from '../../helpers/sensitivity.js';

describeFaultGroup('events');
