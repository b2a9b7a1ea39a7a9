/** Standard normal CDF and quantile for BCa intervals (private: accuracy suits interval levels). */
import { errorFunction } from "simple-statistics";

/**
 * Standard normal CDF, `(1 + erf(x / sqrt 2)) / 2`, with simple-statistics' `errorFunction`
 * (the Chebyshev-fitted approximation of Numerical Recipes, absolute error below 1.2e-7).
 * Enough for interval levels: an error of 1.2e-7 in a level moves a type-7 quantile of 10,000
 * resamples by 0.0012 positions.
 */
export function normalCdf(x: number): number {
  if (Number.isNaN(x)) return NaN;
  return 0.5 * (1 + errorFunction(x / Math.SQRT2));
}

const A = [
  -3.969683028665376e1,
  2.209460984245205e2,
  -2.759285104469687e2,
  1.38357751867269e2,
  -3.066479806614716e1,
  2.506628277459239,
];
const B = [
  -5.447609879822406e1,
  1.615858368580409e2,
  -1.556989798598866e2,
  6.680131188771972e1,
  -1.328068155288572e1,
];
const C = [
  -7.784894002430293e-3,
  -3.223964580411365e-1,
  -2.400758277161838,
  -2.549732539343734,
  4.374664141464968,
  2.938163982698783,
];
const D = [7.784695709041462e-3, 3.224671290700398e-1, 2.445134137142996, 3.754408661907416];

/**
 * Standard normal quantile (scipy's `ndtri`) by Acklam's rational approximation, relative
 * error below 1.15e-9. Returns -Infinity at 0 and Infinity at 1.
 */
export function normalQuantile(p: number): number {
  if (Number.isNaN(p) || p < 0 || p > 1) return NaN;
  if (p === 0) return -Infinity;
  if (p === 1) return Infinity;
  const low = 0.02425;
  if (p < low) {
    const q = Math.sqrt(-2 * Math.log(p));
    return (((((C[0] * q + C[1]) * q + C[2]) * q + C[3]) * q + C[4]) * q + C[5]) /
      ((((D[0] * q + D[1]) * q + D[2]) * q + D[3]) * q + 1);
  }
  if (p > 1 - low) return -normalQuantile(1 - p);
  const q = p - 0.5;
  const r = q * q;
  return (((((A[0] * r + A[1]) * r + A[2]) * r + A[3]) * r + A[4]) * r + A[5]) * q /
    (((((B[0] * r + B[1]) * r + B[2]) * r + B[3]) * r + B[4]) * r + 1);
}
