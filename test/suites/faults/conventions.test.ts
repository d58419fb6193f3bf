import { describeFaultGroup } from '../../helpers/sensitivity.js';

describeFaultGroup('conventions');
