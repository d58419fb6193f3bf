/** A named fault breaks exactly one stated rule, so the suite can prove it notices. */
export interface Fault {
  /** Name used with `--faults`. */
  id: string;
  /** Requirement id (spec/requirements) whose sentence the fault breaks. */
  requirement: string;
  /** What the reference does differently with the fault on. */
  effect: string;
}
