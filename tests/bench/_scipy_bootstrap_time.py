"""scipy side of bootstrap_vs_scipy.sh: 60 points x 200 pairs x 10,000 resamples.

One scipy.stats.bootstrap(paired=True, vectorized=True, method="percentile") call per point on
the same data as tests/bench/_bootstrap_problem.ts: first MID_asr alone, then all five paired
metrics at once (a vectorized statistic returning five values; scipy resamples once per call).
Prints the two elapsed times in seconds.
"""
import time
import numpy as np
from scipy import stats

GROUPS, PAIRS, RESAMPLES = 60, 200, 10_000
data = []
for g in range(GROUPS):
    i = np.arange(PAIRS)
    c, p = (i * 7 + g * 13) % 10, (i * 11 + g * 3) % 10
    cc, ct = (c >= 5).astype(float), (c == 0).astype(float)
    pc, pt = (p >= 7).astype(float), (p < 1 + g % 5).astype(float)
    data.append((cc, pc, ct, pt))


def mid_asr(pt, ct, axis):
    return (pt - ct).mean(axis=axis)


def all_five(cc, pc, ct, pt, axis):
    return np.stack([cc.mean(axis=axis), pc.mean(axis=axis), pt.mean(axis=axis),
                     (pt - ct).mean(axis=axis), (cc - pc).mean(axis=axis)])


def run(statistic, columns):
    start = time.perf_counter()
    for cols in columns:
        stats.bootstrap(cols, statistic, paired=True, vectorized=True,
                        n_resamples=RESAMPLES, method="percentile", random_state=0)
    return time.perf_counter() - start


one = run(mid_asr, [(pt, ct) for _, _, ct, pt in data])
five = run(all_five, data)
print(f"{one:.4f} {five:.4f}")
