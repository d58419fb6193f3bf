import { afterAll } from 'vitest';
import { conformanceTests } from 'conformance/vitest';
import { startServer } from './server.js';

const server = await startServer();
afterAll(() => server.close());

// One vitest test per check of these suites; the checks that write are skipped unless allowWrites: true.
conformanceTests({ profile: server.profile, suites: ['search', 'notifications'] });
