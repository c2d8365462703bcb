#!/usr/bin/env python3
"""synthetic_table.py — writes a made-up but GPU-like tuning space as a Kernel Tuner cache file, so strategies can
be replayed on spaces nobody tuned them on (issue 8: results must hold beyond the four shared tables).

A table is fixed by its seed. Its landscape has what the recorded tables have: 5-8 ordered parameters of 2-12 values (2,000 to 100,000 configurations);
constraints that remove a third to two thirds of the space (a "workgroup" product limit and a few forbidden value
pairs); a smooth trend per parameter; interactions between pairs of parameters whose product has a sweet spot (a
tile times a workgroup size); several basins of different depth in index space, one narrow and deepest (the kind of
isolated optimum that convolution_A100 has); and a little measurement noise.

usage: synthetic_table.py SEED OUT.json
"""
import itertools
import json
import math
import random
import sys


def table(seed):
    rng = random.Random(seed)
    while True:  # between 2,000 and 100,000 raw configurations, like the recorded tables
        nparams = rng.randint(5, 8)
        values = [list(range(rng.choice([2, 3, 4, 6, 8, 12]))) for _ in range(nparams)]
        if 2000 <= math.prod(len(v) for v in values) <= 100000:
            break
    names = ["p%d" % i for i in range(nparams)]
    # The "workgroup": two parameters whose value product is capped.
    wa, wb = rng.sample(range(nparams), 2)
    cap = (len(values[wa]) + len(values[wb])) * rng.uniform(1.0, 2.0)
    forbidden = {(rng.randrange(nparams), rng.randrange(12), rng.randrange(nparams), rng.randrange(12))
                 for _ in range(nparams * 3)}
    trend = [(rng.uniform(0, 1), rng.uniform(0.1, 0.8)) for _ in range(nparams)]  # (best position, weight)
    pairs = [(*rng.sample(range(nparams), 2), rng.uniform(0.2, 0.8), rng.uniform(0.3, 1.0)) for _ in range(3)]
    basins = []
    for k in range(4):
        centre = [rng.randrange(len(v)) for v in values]
        narrow = k == 0
        basins.append((centre, 0.45 if narrow else rng.uniform(0.1, 0.3), 0.6 if narrow else rng.uniform(1.5, 3)))

    def scaled(i, v):
        return v / (len(values[i]) - 1) if len(values[i]) > 1 else 0.0

    cache = {}
    for c in itertools.product(*values):
        if (c[wa] + 1) * (c[wb] + 1) > cap:
            continue
        if any(c[p] == a and c[q] == b and p != q for p, a, q, b in forbidden):
            continue
        logt = 0.0
        for i, (pos, w) in enumerate(trend):
            logt += w * (scaled(i, c[i]) - pos) ** 2
        for p, q, sweet, w in pairs:
            logt += w * (scaled(p, c[p]) * scaled(q, c[q]) - sweet * sweet) ** 2
        for centre, depth, width in basins:
            d2 = sum((c[i] - centre[i]) ** 2 for i in range(nparams))
            logt -= depth * math.exp(-d2 / (width * width))
        logt += rng.gauss(0, 0.02)
        cache[",".join(map(str, c))] = {"time": round(math.exp(logt), 6)}
    return {"tune_params_keys": names, "tune_params": dict(zip(names, values)), "cache": cache}


if __name__ == "__main__":
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    t = table(int(sys.argv[1]))
    with open(sys.argv[2], "w") as f:
        json.dump(t, f)
    raw = math.prod(len(v) for v in t["tune_params"].values())
    print("%s: %d parameters, %d valid of %d" % (sys.argv[2], len(t["tune_params"]), len(t["cache"]), raw))
