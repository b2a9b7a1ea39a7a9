#!/usr/bin/env bash
# Side-by-side: scipy's vectorized percentile bootstrap vs the kit on 60 x 200 x 10,000.
# Needs Debian's python3-scipy (apt-get install -y python3-scipy); uses /usr/bin/python3.
set -euo pipefail
cd "$(dirname "$0")/../.."
scipy=$(/usr/bin/python3 tests/bench/_scipy_bootstrap_time.py)
read -r kit_mid kit_all < <(deno run -A tests/bench/_kit_bootstrap_time.ts)
echo "problem: 60 operating points x 200 pairs x 10,000 resamples, percentile"
echo "scipy.stats.bootstrap (MID_asr):        ${scipy} s"
echo "kit bootstrapRatios (MID_asr):          ${kit_mid} s  ratio $(awk "BEGIN{printf \"%.1f\", $scipy/$kit_mid}")x"
echo "kit pairedBootstrap (all 5 metrics):    ${kit_all} s  ratio $(awk "BEGIN{printf \"%.1f\", $scipy/$kit_all}")x"
