#!/usr/bin/env python3
# attention_fa_emu.py — a line-by-line numpy emulation of shaders/attention_fa.comp.in for machines without
# cooperative matrices (lavapipe): the same index arithmetic, K/V staging (uvec4, PAD, STAGES), the byte-aliased
# S/P scratch (PADS), coopmat loads/stores with uvec4 offsets and strides, the all-lane softmax with shuffle-xor
# row max, and lazy rescaling through row-constant matrices, checked against an fp64 reference (rel_l2 <= 5e-3,
# the space's tolerance). trend=X raises later keys' scores so that rescales happen; SG=16/64 tries other
# subgroup sizes. Needs numpy (Debian: python3-numpy).
#   python3 tools/attention_fa_emu.py HEADS=1,S=256,D=128,BC=32,NSG=2,RT=2,STAGES=2,PAD=1,PADS=1,THR=8,trend=6
import numpy as np, sys
def run(HEADS, S, D, BC, NSG, RT, STAGES, PAD, PADS, THR, SG=32, qscale=1.0, seed=1, trend=0.0):
    rng = np.random.default_rng(seed)
    Q = (rng.uniform(-2, 2, (HEADS * S * D)) * qscale).astype(np.float16)
    Kh = rng.uniform(-2, 2, (HEADS, S, D))
    Kh += trend * np.linspace(0, 1, S)[None, :, None]   # later keys score higher: forces rescales
    K = Kh.astype(np.float16).reshape(-1)
    V = rng.uniform(-1, 1, (HEADS * S * D)).astype(np.float16)
    O = np.zeros(HEADS * S * D, np.float16)
    Ku, Vu = K.view(np.uint8), V.view(np.uint8)     # global K, V as bytes (uvec4 = 16 bytes)
    THREADS = SG * NSG; DV = D // 8; SK = DV + PAD; KSZ = BC * SK; LKV = BC * DV // THREADS
    SS = BC // 4 + PADS; TSZ = 16 * SS; LPR = SG // 16; GPL = BC // 8 // LPR; AW = 4 // LPR
    assert (BC * DV) % THREADS == 0 and (BC // 8) % LPR == 0
    sKV = np.zeros(STAGES * 2 * KSZ * 16, np.uint8)
    sX = np.zeros(NSG * RT * TSZ * 16, np.uint8)
    def u4(buf, i): return buf[i * 16:(i + 1) * 16]
    def load(buf, dtype, off, stride, colmajor):
        es = np.dtype(dtype).itemsize; m = np.zeros((16, 16), np.float64)
        for i in range(16):
            for j in range(16):
                a = off * 16 + ((j * stride * 16 + i * es) if colmajor else (i * stride * 16 + j * es))
                m[i, j] = buf[a:a + es].view(dtype)[0]
        return m
    def store(buf, dtype, m, off, stride):
        es = np.dtype(dtype).itemsize
        for i in range(16):
            a = off * 16 + i * stride * 16
            buf[a:a + 16 * es] = m[i].astype(dtype).view(np.uint8)
    f16 = lambda x: np.asarray(x, np.float64).astype(np.float16).astype(np.float64)
    scale = 1.4426950408889634 / np.sqrt(D)
    nblocks = S // BC; rescales = 0
    for head in range(HEADS):
        for wg in range(S // (16 * RT * NSG)):
            kvrow0 = head * S
            rk = np.zeros((THREADS, LKV, 16), np.uint8); rv = rk.copy()
            def load_kv(row0):
                for tid in range(THREADS):
                    for l in range(LKV):
                        i = tid + l * THREADS; g = (row0 + i // DV) * DV + i % DV
                        rk[tid, l] = u4(Ku, g); rv[tid, l] = u4(Vu, g)
            def store_kv(s):
                for tid in range(THREADS):
                    for l in range(LKV):
                        i = tid + l * THREADS; o = (i // DV) * SK + i % DV
                        sKV[(s * 2 * KSZ + o) * 16:(s * 2 * KSZ + o + 1) * 16] = rk[tid, l]
                        sKV[(s * 2 * KSZ + KSZ + o) * 16:(s * 2 * KSZ + KSZ + o + 1) * 16] = rv[tid, l]
            st = {}
            for sg in range(NSG):
                q0 = (wg * NSG + sg) * RT * 16
                qa = [[f16(Q[(kvrow0 + q0 + t * 16) * D + d * 16 + np.arange(16)[:, None] * D + np.arange(16)[None, :]])
                       for d in range(D // 16)] for t in range(RT)]
                st[sg] = dict(q0=q0, qa=qa, o=[[np.zeros((16, 16)) for d in range(D // 16)] for t in range(RT)],
                              m_ref=[np.full(SG, -np.inf) for t in range(RT)], l_part=[np.zeros(SG) for t in range(RT)])
            def write_row_scale(tb, vals):  # vals per lane
                for lane in range(SG):
                    row, part = lane % 16, lane // 16
                    for k in range(AW):
                        u = tb + row * SS + part + k * LPR
                        sX[u * 16:(u + 1) * 16] = np.full(4, vals[lane], np.float32).view(np.uint8)
            if STAGES == 2:
                load_kv(kvrow0); store_kv(0)
            for b in range(nblocks):
                if STAGES == 2:
                    s = b & 1
                    if b + 1 < nblocks: load_kv(kvrow0 + (b + 1) * BC)
                else:
                    s = 0; load_kv(kvrow0 + b * BC); store_kv(0)
                kb = s * 2 * KSZ; vb = kb + KSZ
                for sg in range(NSG):
                    z = st[sg]
                    for c in range(BC // 16):
                        acc = [np.zeros((16, 16)) for t in range(RT)]
                        for d in range(D // 16):
                            kt = load(sKV, np.float16, kb + c * 16 * SK + d * 2, SK, True)
                            for t in range(RT): acc[t] = acc[t] + z['qa'][t][d] @ kt
                        for t in range(RT):
                            store(sX, np.float32, acc[t], (sg * RT + t) * TSZ + c * 4, SS)
                    for t in range(RT):
                        tb = (sg * RT + t) * TSZ
                        x = np.zeros((SG, 2 * GPL, 4)); mx = np.full(SG, -np.inf)
                        for lane in range(SG):
                            row, part = lane % 16, lane // 16; rb = tb + row * SS
                            for g in range(GPL):
                                gi = part + g * LPR
                                x[lane, 2 * g] = u4(sX, rb + 2 * gi).view(np.float32) * np.float32(scale)
                                x[lane, 2 * g + 1] = u4(sX, rb + 2 * gi + 1).view(np.float32) * np.float32(scale)
                            mx[lane] = x[lane].max()
                        k = 16
                        while k < SG:
                            mx = np.maximum(mx, mx[np.arange(SG) ^ k]); k *= 2
                        m_ref = z['m_ref'][t]
                        if np.any(mx > m_ref + THR):
                            rescales += 1
                            mn = np.maximum(m_ref, mx)
                            with np.errstate(invalid='ignore'):
                                alpha = np.exp2(m_ref - mn)
                            z['m_ref'][t] = m_ref = mn
                            z['l_part'][t] = z['l_part'][t] * alpha
                            if b > 0:
                                write_row_scale(tb, alpha)
                                am = load(sX, np.float32, tb, SS, False)
                                for d in range(D // 16): z['o'][t][d] = z['o'][t][d] * am
                        for lane in range(SG):
                            row, part = lane % 16, lane // 16; rb = tb + row * SS; ssum = 0.0
                            for g in range(GPL):
                                p0 = np.exp2(x[lane, 2 * g] - m_ref[lane]).astype(np.float16)
                                p1 = np.exp2(x[lane, 2 * g + 1] - m_ref[lane]).astype(np.float16)
                                ssum += p0.astype(np.float64).sum() + p1.astype(np.float64).sum()
                                u = rb + part + g * LPR
                                sX[u * 16:(u + 1) * 16] = np.concatenate([p0, p1]).view(np.uint8)
                            z['l_part'][t][lane] += ssum
                    for c in range(BC // 16):
                        pa = [load(sX, np.float16, (sg * RT + t) * TSZ + c * 2, SS, False) for t in range(RT)]
                        for d in range(D // 16):
                            vf = load(sKV, np.float16, vb + c * 16 * SK + d * 2, SK, False)
                            for t in range(RT): z['o'][t][d] = z['o'][t][d] + pa[t] @ vf
                if STAGES == 2 and b + 1 < nblocks: store_kv(s ^ 1)
            for sg in range(NSG):
                z = st[sg]
                for t in range(RT):
                    l = z['l_part'][t].copy(); k = 16
                    while k < SG:
                        l = l + l[np.arange(SG) ^ k]; k *= 2
                    tb = (sg * RT + t) * TSZ
                    write_row_scale(tb, 1.0 / l)
                    inv = load(sX, np.float32, tb, SS, False)
                    for d in range(D // 16):
                        r = (z['o'][t][d] * inv).astype(np.float16)
                        for i in range(16):
                            a = (kvrow0 + z['q0'] + t * 16 + i) * D + d * 16
                            O[a:a + 16] = r[i]
    q = Q.astype(np.float64).reshape(HEADS, S, D); kk = K.astype(np.float64).reshape(HEADS, S, D)
    v = V.astype(np.float64).reshape(HEADS, S, D)
    sc = q @ kk.transpose(0, 2, 1) / np.sqrt(D); sc -= sc.max(-1, keepdims=True); p = np.exp(sc)
    ref = (p @ v) / p.sum(-1, keepdims=True)
    out = O.astype(np.float64).reshape(HEADS, S, D)
    return np.linalg.norm(out - ref) / np.linalg.norm(ref), rescales
if __name__ == "__main__":
    for cfg in sys.argv[1:]:
        kw = {k: float(v) if k in ("qscale", "trend") else int(v) for k, v in (a.split("=") for a in cfg.split(","))}
        err, n = run(**kw)
        print("%-80s rel_l2 %.3e rescales %d %s" % (cfg, err, n, "PASS" if err <= 5e-3 else "FAIL"))
