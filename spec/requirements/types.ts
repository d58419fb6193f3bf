/** A rule the spec states, quoted. Checks report under its id; reference faults name it. */
export interface Requirement {
  /** Stable id, e.g. `search.q-length-256`. Reports and baselines refer to it. */
  id: string;
  level: 'MUST' | 'SHOULD' | 'MAY';
  doc: 1 | 2;
  /** Section heading of the spec document the sentence comes from. */
  section: string;
  /**
   * The spec's own words, verbatim. Table cells are quoted with ` | ` between them as in the
   * source; separate passages are joined with ` … `.
   */
  sentence: string;
}

export function req(id: string, level: Requirement['level'], doc: 1 | 2, section: string, sentence: string): Requirement {
  return { id, level, doc, section, sentence };
}
