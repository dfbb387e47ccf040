#!/usr/bin/python3
"""Reference values for test_stats_ref.c, computed with scipy and
statsmodels (Debian's python3-scipy and python3-statsmodels), independently
of the C code and of GSL:

  - Welch's confidence interval of mean(b) - mean(a): statsmodels'
    CompareMeans.tconfint_diff(usevar="unequal");
  - Mann-Whitney U of a against b, two-sided: scipy.stats.mannwhitneyu,
    both its exact and its asymptotic p, and the one its method="auto" picks;
  - Benjamini-Hochberg q-values: statsmodels' multipletests("fdr_bh");
  - the minimal detectable effect of the t-test: the effect size at which
    statsmodels' TTestIndPower.power is 80%;
  - the paired t-test of b against a: scipy.stats.ttest_rel, the interval
    of the mean difference from statsmodels' DescrStatsW(b - a).tconfint_mean,
    and the effect size at which statsmodels' TTestPower.power (the
    one-sample test of the differences) is 80%, at alpha 0.05 and 0.005;
  - the Wilcoxon signed-rank test of the same pairs: scipy.stats.wilcoxon,
    exact where no difference is zero or ties, method="approx" otherwise;
  - the MDE at iteration counts from 2 to thousands, where a chi-square of
    many degrees of freedom is a narrow peak (TTestIndPower, TTestPower);
  - the interval of the ratio mean(b) / mean(a) on the log scale by the
    delta method: the standard errors of the means from statsmodels'
    DescrStatsW, the quantile from scipy's t.ppf; paired, the standard
    error of the mean of b/mean(b) - a/mean(a).

Run it with Debian's interpreter (the python3 on PATH may lack these
modules) to regenerate the header: /usr/bin/python3 tests/unit/stats_ref.py
> tests/unit/stats_ref.h"""
import numpy as np
import scipy
import statsmodels
from scipy import optimize, stats
from statsmodels.stats.multitest import multipletests
from statsmodels.stats.power import TTestIndPower, TTestPower
from statsmodels.stats.weightstats import CompareMeans, DescrStatsW

SETS = [
    ("ramp vs double ramp", [1, 2, 3, 4, 5], [2, 4, 6, 8, 10]),
    ("one side constant", [5, 5, 5, 5], [4.8, 6, 5.5, 4.5]),
    ("fault times ns", [1234.5e6, 1240.1e6, 1229.8e6, 1236.0e6, 1231.7e6],
     [1010.2e6, 1015.9e6, 1003.3e6, 1012.8e6, 1008.1e6, 1011.0e6, 1006.4e6]),
    ("not significant", [10.1, 9.7, 10.4, 10.0], [10.3, 9.9, 10.6, 9.8, 10.2]),
    ("two each", [3.0, 4.0], [7.0, 9.0]),
    ("latency p99 ns, no ties", [1520, 1610, 1480, 2900, 1550], [1900, 2050, 1990, 4100, 1870]),
    ("latency with ties", [100, 110, 110, 120, 100, 130], [110, 140, 150, 110, 160, 170]),
    ("nine and ten", [5.1, 4.9, 5.3, 5.0, 5.2, 4.8, 5.05, 5.15, 4.95],
     [5.4, 5.6, 5.0, 5.5, 5.7, 5.3, 5.45, 5.55, 5.35, 5.25]),
    ("interleaved", [1, 3, 5, 7, 9], [2, 4, 6, 8, 10]),
    ("nine and ten, no ties", [11, 13, 12.5, 14, 10.5, 12, 13.5, 11.5, 15],
     [14.2, 15.1, 13.2, 16.3, 14.8, 15.6, 12.7, 16.9, 14.4, 15.9]),
]

# Pairs (a[i], b[i]): blocks of an interleaved run.
PAIRED = [
    ("drift shared, +3%", [100, 110, 95, 120, 105, 98, 112, 101], [103.2, 113.1, 97.6, 123.9, 108.0, 101.1, 115.2, 104.3]),
    ("no change", [10.1, 9.7, 10.4, 10.0, 9.9], [10.0, 9.9, 10.3, 10.2, 9.8]),
    ("three pairs", [1.0, 2.0, 3.0], [1.5, 2.1, 3.9]),
    ("anti-correlated", [5, 7, 5, 7, 5, 7], [7, 5, 7, 5, 7.5, 5.5]),
    ("p99 us, no ties", [312, 298, 340, 305, 322, 317, 290, 333, 301, 310],
     [318, 309, 339, 317, 330, 321, 305, 338, 298, 324]),
    ("tied and zero", [300, 310, 320, 330, 340, 350, 360, 370, 380, 390, 400, 410],
     [310, 300, 330, 330, 350, 355, 370, 380, 390, 395, 410, 420]),
]

PVALS = [
    ("mixed", [0.01, 0.04, 0.03, 0.005, 0.2, 0.5, 0.045, 0.0001]),
    ("ties and ones", [0.02, 0.02, 0.02, 1.0, 0.9, 0.001]),
    ("single", [0.03]),
    ("far tail", [1e-12, 3e-9, 0.049, 0.051, 0.7]),
]


def c(x):
    return repr(float(x)) if np.isfinite(x) else "NAN"


def arr(v):
    return "{ " + ", ".join(c(x) for x in v) + " }"


print("/* Written by tests/unit/stats_ref.py with scipy %s and statsmodels %s; do not edit. */"
      % (scipy.__version__, statsmodels.__version__))
print("static const struct stats_ref stats_refs[] = {")
for name, a, b in SETS:
    a, b = np.array(a, float), np.array(b, float)
    cm = CompareMeans(DescrStatsW(b), DescrStatsW(a))
    lo, hi = cm.tconfint_diff(alpha=0.05, usevar="unequal")
    u, p_auto = stats.mannwhitneyu(a, b, alternative="two-sided", method="auto")
    _, p_asym = stats.mannwhitneyu(a, b, alternative="two-sided", method="asymptotic")
    ties = len(np.unique(np.concatenate([a, b]))) < len(a) + len(b)
    p_exact = float("nan") if ties else stats.mannwhitneyu(a, b, alternative="two-sided", method="exact")[1]
    # The effect size (Cohen's d, pooled sd) Welch's test would catch with
    # 80% power at alpha 0.05, and the pooled sd that turns it into a
    # difference of means.
    # (solve_power's own root finder stops at about 1e-6; the root of its
    # power function is taken here to the double's precision instead.)
    def short(d):
        return TTestIndPower().power(d, nobs1=len(a), alpha=0.05, ratio=len(b) / len(a),
                                     alternative="two-sided") - 0.8
    d = optimize.brentq(short, 1e-3, 100, xtol=1e-15, rtol=8.9e-16)
    sp = np.sqrt(((len(a) - 1) * a.var(ddof=1) + (len(b) - 1) * b.var(ddof=1)) / (len(a) + len(b) - 2))
    print(f'\t{{ "{name}", {arr(a)}, {len(a)}, {arr(b)}, {len(b)},')
    print(f'\t  {c(lo)}, {c(hi)}, {c(u)}, {c(p_auto)}, {c(p_exact)}, {c(p_asym)}, {int(ties)}, {c(d)}, {c(d * sp)} }},')
print("};")
print()
print("static const struct bh_ref bh_refs[] = {")
for name, p in PVALS:
    q = multipletests(p, alpha=0.05, method="fdr_bh")[1]
    print(f'\t{{ "{name}", {arr(p)}, {arr(q)}, {len(p)} }},')
print("};")
print()
print("static const struct paired_ref paired_refs[] = {")
for name, a, b in PAIRED:
    a, b = np.array(a, float), np.array(b, float)
    t, p = stats.ttest_rel(b, a)
    lo, hi = DescrStatsW(b - a).tconfint_mean(alpha=0.05)
    ds = []
    for alpha in (0.05, 0.005):
        def short(d):
            return TTestPower().power(d, nobs=len(a), alpha=alpha, alternative="two-sided") - 0.8
        ds.append(optimize.brentq(short, 1e-3, 100, xtol=1e-15, rtol=8.9e-16))
    d = b - a
    plain = np.all(d != 0) and len(np.unique(np.abs(d))) == len(d)
    w = stats.wilcoxon(b, a, method="exact" if plain else "approx")
    rp = sum(r for r, x in zip(stats.rankdata(np.abs(d[d != 0])), d[d != 0]) if x > 0)
    print(f'\t{{ "{name}", {arr(a)}, {arr(b)}, {len(a)}, {c(t)}, {c(p)}, {c(lo)}, {c(hi)}, {c(ds[0])}, {c(ds[1])},')
    print(f'\t  {c(rp)}, {c(w.pvalue)}, {int(plain)} }},')
print("};")
print()
print("static const struct power_ref power_refs[] = {")
for na, nb, alpha in [(2, 2, 0.05), (3, 0, 0.05), (40, 150, 0.01), (300, 300, 0.05 / 11), (790, 790, 0.05 / 11),
                      (100, 0, 0.05 / 11), (790, 0, 0.05 / 11), (3000, 0, 0.001), (2500, 2500, 0.05)]:
    if nb:
        def short(d):
            return TTestIndPower().power(d, nobs1=na, alpha=alpha, ratio=nb / na, alternative="two-sided") - 0.8
    else:
        def short(d):
            return TTestPower().power(d, nobs=na, alpha=alpha, alternative="two-sided") - 0.8
    d = optimize.brentq(short, 1e-4, 100, xtol=1e-15, rtol=8.9e-16)
    print(f'\t{{ {na}, {nb}, {c(alpha)}, {c(d)} }},')
print("};")
print()
print("static const struct ratio_ref ratio_refs[] = {")
for name, a, b in SETS:
    a, b = np.array(a, float), np.array(b, float)
    if min(a.min(), b.min()) <= 0:
        continue
    ma, mb = a.mean(), b.mean()
    sa = (DescrStatsW(a).std_mean / ma) ** 2
    sb = (DescrStatsW(b).std_mean / mb) ** 2
    df = (sa + sb) ** 2 / (sa ** 2 / (len(a) - 1) + sb ** 2 / (len(b) - 1)) if sa + sb > 0 else 1
    half = stats.t.ppf(0.975, df) * np.sqrt(sa + sb)
    print(f'\t{{ "{name}", {arr(a)}, {len(a)}, {arr(b)}, {len(b)}, 0, {c(mb / ma * np.exp(-half))}, {c(mb / ma * np.exp(half))} }},')
for name, a, b in PAIRED:
    a, b = np.array(a, float), np.array(b, float)
    ma, mb = a.mean(), b.mean()
    z = DescrStatsW(b / mb - a / ma)
    half = stats.t.ppf(0.975, len(a) - 1) * z.std_mean
    print(f'\t{{ "{name}", {arr(a)}, {len(a)}, {arr(b)}, {len(b)}, 1, {c(mb / ma * np.exp(-half))}, {c(mb / ma * np.exp(half))} }},')
print("};")
