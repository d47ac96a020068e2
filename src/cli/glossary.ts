/** The words reports use, at the end of the top-level help and of each command's. */
export const GLOSSARY = `Words used in reports:
  severity     critical | high | medium | low: how bad a signal is if it is real
  confidence   0–1, how sure a detector (or the judges) is
  gray zone    confidence 0.35–0.65: escalated to the next tier (embeddings, judges), else review
  finding      a signal above the gray zone, not suppressed, not shadow: what the gate and every
               total count
  review       a gray-zone signal no automatic tier decided: listed for a human, never failing
  suppressed   waste a higher-priority detector already charged (suppressedBy names it)
  shadow       from a detector set shadow: true — reported and marked, never counted
  failOn       the severities of findings that fail the gate (default critical, high); input
               that could not be read fails it too unless allowed`;
