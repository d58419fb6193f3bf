/** A named fault breaks exactly one stated rule, so the suite can prove it notices. */
export interface Fault {
  /** Name used with `--faults`. */
  id: string;
  /** Requirement id (spec/requirements) whose sentence the fault breaks. */
  requirement: string;
  /** What the reference does differently with the fault on. */
  effect: string;
  /**
   * Catalogue endpoint ids where the fault breaks its rule, when fewer than its requirement governs
   * (within its area, for an area's fault); see brokenEndpoints in reference/faults.ts.
   */
  endpoints?: readonly string[];
}
