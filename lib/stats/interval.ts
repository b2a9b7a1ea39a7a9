/** A point estimate with its interval, and the names of the interval methods a summary uses. */

/** A point estimate with its interval. */
export interface Interval {
  /** The statistic on the observed data. */
  estimate: number;
  /** Lower interval bound. */
  lo: number;
  /** Upper interval bound. */
  hi: number;
}

/**
 * What `summarize --ci` accepts. `auto` picks per metric: Wilson for a single proportion,
 * Newcombe's method 10 for a paired difference, and a BCa cluster bootstrap when instances hold
 * several pairs. `wilson` and `newcombe` both select the score family (Wilson for proportions,
 * Newcombe for differences: method 10 is built from Wilson intervals); `percentile` and `bca`
 * bootstrap every metric.
 */
export const CI_CHOICES = ["auto", "wilson", "newcombe", "percentile", "bca"] as const;
/** One `--ci` choice. */
export type CiChoice = typeof CI_CHOICES[number];

/**
 * The method a summary row names for one metric (`<metric>CiMethod`). The `-instances` forms
 * are the score intervals over instances (one observation per instance, its mean), which `auto`
 * uses when the cluster bootstrap has no spread (every instance has the same value), where a
 * bootstrap interval would have zero width.
 */
export type CiMethod =
  | "wilson"
  | "newcombe"
  | "percentile"
  | "bca"
  | "wilson-instances"
  | "newcombe-instances";
