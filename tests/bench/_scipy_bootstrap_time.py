"""scipy side of bootstrap_vs_scipy.sh: 60 points x 200 pairs x 10,000 resamples of MID_asr.

One scipy.stats.bootstrap(paired=True, vectorized=True, method="percentile") call per point,
on the same data as tests/bench/_bootstrap_problem.ts. Prints elapsed seconds.
"""
import time
import numpy as np
from scipy import stats

GROUPS, PAIRS, RESAMPLES = 60, 200, 10_000
data = []
for g in range(GROUPS):
    i = np.arange(PAIRS)
    c, p = (i * 7 + g * 13) % 10, (i * 11 + g * 3) % 10
    data.append(((p < 1 + g % 5).astype(float), (c == 0).astype(float)))

start = time.perf_counter()
for pt, ct in data:
    stats.bootstrap((pt, ct), lambda p, c, axis: (p - c).mean(axis=axis), paired=True,
                    vectorized=True, n_resamples=RESAMPLES, method="percentile",
                    random_state=0)
print(f"{time.perf_counter() - start:.4f}")
