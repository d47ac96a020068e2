/**
 * Which way a one-sided test looks: `less` when the alternative is that head's value is below
 * base's (a drop in success), `greater` when above (a rise in the share of runs with a finding,
 * in waste per run). The gate always asks toward "worse"; the other side tells an improvement.
 */
export type Alternative = 'less' | 'greater';

export const opposite = (a: Alternative): Alternative => (a === 'less' ? 'greater' : 'less');
