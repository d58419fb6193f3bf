import { describeFaultGroup } from '../../helpers/sensitivity.js';

describeFaultGroup('code-scanning');
