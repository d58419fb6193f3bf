/**
 * Your project's server. Here the reference implementation stands in for it, with its own profile
 * (tokens and resources the checks use); `FAULTS=search-operators-unlimited` breaks one rule on
 * purpose, to see what a failing check looks like.
 */
import { referenceProfile } from 'conformance/dist/reference/profile.js';
import { startReference } from 'conformance/dist/reference/server.js';

export async function startServer() {
  const faults = (process.env.FAULTS ?? '').split(',').filter(Boolean);
  // A poll interval of one second (the platform's is 60) keeps the polling checks quick.
  const reference = await startReference({ port: 0, faults, pollIntervalSeconds: 1 });
  return { profile: referenceProfile(reference), close: () => reference.close() };
}
