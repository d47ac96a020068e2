/**
 * One pattern redaction looks for: a rule of gitleaks' default set (gitleaksRules.generated.ts) or
 * one of tracejury's own forms (secretForms.ts). Sources are JavaScript regex source used without
 * flags (case-insensitivity is written out as classes), so every pattern runs the same on every
 * supported Node line.
 */
export interface CredentialPattern {
  /** gitleaks' rule id, or the name of one of tracejury's own forms. */
  id: string;
  /**
   * Regex sources, one of which every text holding a match holds: what the prefilter looks for
   * before the pattern runs. Each starts with a literal character or a `\b` and is selective, so
   * nearly all text is never scanned further.
   */
  anchors: readonly string[];
  /** The credential: group 1 when the pattern has a group (what is replaced), else the whole match. */
  pattern: string;
  /** The least Shannon entropy (bits a character) the secret must have, as gitleaks requires. */
  entropy?: number;
  /** Regex sources of matches the rule does not count as secrets (the rule's gitleaks allowlist). */
  allow?: readonly string[];
  /** Fragments that, in a match (any case), mark it as no secret (the allowlist's stopwords). */
  stopwords?: readonly string[];
}
