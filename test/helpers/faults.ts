/** The shape of every fault test: a probe of one rule holds on a correct reference and fails on one started with that fault alone. */
import { afterAll, describe, expect, it } from 'vitest';
import { startReference, type ReferenceOptions, type RunningReference } from '../../reference/server.js';

/** Resolves true when the rule holds at the reference whose API root is `base`. */
export type Probe = (base: string) => Promise<boolean>;

export function describeFaultProbes(title: string, probes: Record<string, Probe>, options: ReferenceOptions = {}): void {
  describe(title, () => {
    const started: RunningReference[] = [];
    afterAll(() => Promise.all(started.map((r) => r.close())));
    const start = async (faults: string[]) => {
      const r = await startReference({ port: 0, ...options, faults });
      started.push(r);
      return r.url;
    };
    for (const [fault, probe] of Object.entries(probes)) {
      it(`${fault}: the rule holds without the fault and breaks with it`, async () => {
        expect(await probe(await start([]))).toBe(true);
        expect(await probe(await start([fault]))).toBe(false);
      });
    }
  });
}
