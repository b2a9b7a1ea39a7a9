#!/usr/bin/env bash
# Side-by-side: scipy's vectorized percentile bootstrap vs the kit on 60 x 200 x 10,000, the same
# statistics on both sides (MID_asr alone; then all five paired metrics). RUNS=n repeats the pair
# of runs n times (default 1), alternating scipy and kit so both see the same machine load.
# Needs Debian's python3-scipy (apt-get install -y python3-scipy); uses /usr/bin/python3.
set -euo pipefail
cd "$(dirname "$0")/../.."
echo "problem: 60 operating points x 200 pairs x 10,000 resamples, percentile, seconds"
printf "%-4s %-9s %-9s %-7s  %-9s %-9s %-7s\n" run scipy1 kit1 ratio1 scipy5 kit5 ratio5
for run in $(seq 1 "${RUNS:-1}"); do
  read -r s1 s5 < <(/usr/bin/python3 tests/bench/_scipy_bootstrap_time.py)
  read -r k1 k5 < <(deno run -A tests/bench/_kit_bootstrap_time.ts)
  printf "%-4s %-9s %-9s %-7s  %-9s %-9s %-7s\n" "$run" "$s1" "$k1" \
    "$(awk "BEGIN{printf \"%.1fx\", $s1/$k1}")" "$s5" "$k5" "$(awk "BEGIN{printf \"%.1fx\", $s5/$k5}")"
done
echo "1 = MID_asr only (scipy: one statistic; kit: bootstrapRatios on the 3 values of pt - ct)"
echo "5 = all five paired metrics (scipy: one vectorized statistic returning 5 values;"
echo "    kit: pairedBootstrap, from PairOutcome objects, all five intervals)"
