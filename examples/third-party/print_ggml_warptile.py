#!/usr/bin/env python3
"""Prints the winners of `vkautotune export` (manifest.json) for ggml_mul_mm.ini in the form ggml-vulkan.cpp keeps
its per-device tile choices: the 11 specialization constants in constant_id order,
    l_warptile = { BLOCK_SIZE, BM, BN, BK, WM, WN, WMITER, TM, TN, TK, WARP };
one line per device and problem.  usage: print_ggml_warptile.py DIR/manifest.json [NAME]"""
import json
import sys


def main():
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    name = sys.argv[2] if len(sys.argv) > 2 else "l_warptile"
    manifest = json.load(open(sys.argv[1]))
    for k in manifest["kernels"]:
        spec = sorted((c for c in k["specialization_constants"] if not c.get("problem")), key=lambda c: c["id"])
        values = ", ".join(str(c["value"]) for c in spec)
        problem = ",".join("%s=%s" % kv for kv in k["problem"].items())
        print("// %s on %s, %s: median %s ms" % (k["kernel"], k["device"]["name"], problem,
                                               k.get("measured", {}).get("median_ms")))
        print("%s = { %s };" % (name, values))


if __name__ == "__main__":
    main()
