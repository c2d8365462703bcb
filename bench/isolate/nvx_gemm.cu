// A GEMM with asynchronous global -> shared copies, run from a Vulkan command buffer through VK_NVX_binary_import
// by bench/isolate/nvx_gemm.c (issue 21: what staging that skips the registers is worth on the H200, measured
// rather than argued). C[M][N] (fp32) = A[M][K] * B[K][N], fp16 inputs row-major, fp32 accumulation: the problem of
// spaces/cmgemm_f16.ini with BT = 0. The same tile as cmgemm's C1: 128 x 128 per block of 4 warps, 64 x 64 per warp,
// and the same instructions the cooperative-matrix kernels compile to (ldmatrix and mma.sync.m16n8k16), so the
// difference is the staging: STAGES shared stages filled by cp.async (LDGSTS, no registers) STAGES - 1 K steps
// ahead, instead of global -> registers -> shared. Shared rows are XOR-swizzled by 16-byte chunk so that ldmatrix
// reads 8 rows without bank conflicts (a coopMatLoad cannot read a swizzled tile). BN = 256 (-DBN=256): 8 warps of
// 64 x 64 per block. M a multiple of 128, N of BN, K of 32; blocks of 2 * BN / 64 warps over (N / BN) x (M / 128).
// All of a block's stages live in the 48 KiB of static shared memory (a larger dynamic allocation needs
// cuFuncSetAttribute, which a Vulkan launch does not reach): STAGES * (128 + BN) * 64 bytes.
// Experiments (not yet measured; results wrong by design, so nvx_gemm's check fails and its time is the figure):
// ISO = 1 drops the K loop's cp.async loads (every step multiplies a stage filled before the loop again), ISO = 2 also
// its waits and barriers, as cmgemm.comp.in's ISO does for the Vulkan kernel. DYN = 1 puts the stages in dynamic
// shared memory, sized by the launch (nvx_gemm's SMEM argument), to try more than 48 KiB of them.
//   nvcc -arch=sm_90 -ptx [-DSTAGES=2] [-DBN=256] [-DISO=1] [-DDYN=1] -o nvx_gemm.ptx bench/isolate/nvx_gemm.cu (or -cubin)
#include <cuda_fp16.h>

#define BM 128
#ifndef BN
#define BN 128
#endif
#define BK 32
#ifndef STAGES
#define STAGES 3
#endif
#define THREADS (BN / 64 * 2 * 32)
#define GROUP 8 // tile rows per group of the block order, so that blocks running at once share A and B in L2
#ifndef ISO
#define ISO 0
#endif
#ifndef DYN
#define DYN 0
#endif

static __device__ __forceinline__ void cp16(unsigned dst, const void *src)
{
    asm volatile("cp.async.cg.shared.global [%0], [%1], 16;\n" ::"r"(dst), "l"(src));
}
// byte offsets in a stage: A is BM rows of 4 chunks (16 bytes), B is BK rows of 16 chunks, chunks XOR-swizzled
static __device__ __forceinline__ unsigned a_off(int r, int c) { return (r * 4 + (c ^ ((r >> 1) & 3))) * 16; }
static __device__ __forceinline__ unsigned b_off(int r, int c) { return (r * (BN / 8) + (c ^ (r & 7))) * 16; }

extern "C" __global__ void __launch_bounds__(THREADS, 256 / THREADS)
    gemm_f16(const half *__restrict__ A, const half *__restrict__ B, float *__restrict__ C, int M, int N, int K)
{
#if DYN
    extern __shared__ __align__(128) unsigned char smem[]; // STAGES * (BM * BK + BK * BN) * 2 bytes, from the launch
#else
    __shared__ __align__(128) unsigned char smem[STAGES * (BM * BK + BK * BN) * 2];
#endif
    const int tid = threadIdx.x, lane = tid & 31, warp = tid >> 5, wm = warp / (BN / 64), wn = warp % (BN / 64);
    const int GX = N / BN, GY = M / BM, id = blockIdx.y * GX + blockIdx.x;
    const int first = id / (GROUP * GX) * GROUP, rows = min(GY - first, GROUP);
    const int row0 = (first + id % (GROUP * GX) % rows) * BM, col0 = id % (GROUP * GX) / rows * BN;
    const unsigned base = (unsigned)__cvta_generic_to_shared(smem), ASZ = BM * BK * 2, STG = (BM * BK + BK * BN) * 2;
    const int KT = K / BK;

    auto load = [&](int stage, int kt) {
        const unsigned sa = base + stage * STG, sb = sa + ASZ;
        const int k0 = kt * BK;
#pragma unroll
        for (int l = 0; l < BM * BK / 8 / THREADS; l++) {
            int i = tid + l * THREADS, r = i >> 2, c = i & 3;
            cp16(sa + a_off(r, c), A + (size_t)(row0 + r) * K + k0 + c * 8);
        }
#pragma unroll
        for (int l = 0; l < BK * BN / 8 / THREADS; l++) {
            int i = tid + l * THREADS, r = i / (BN / 8), c = i % (BN / 8);
            cp16(sb + b_off(r, c), B + (size_t)(k0 + r) * N + col0 + c * 8);
        }
    };

    float acc[4][8][4];
#pragma unroll
    for (int i = 0; i < 4; i++)
#pragma unroll
        for (int j = 0; j < 8; j++)
#pragma unroll
            for (int e = 0; e < 4; e++)
                acc[i][j][e] = 0.0f;
#pragma unroll
    for (int s = 0; s < STAGES - 1; s++) {
        if (s < KT)
            load(s, s);
        asm volatile("cp.async.commit_group;\n" ::);
    }
#if ISO >= 1
    asm volatile("cp.async.wait_group 0;\n" ::); // the stages filled before the loop stand in for every tile
    __syncthreads();
#endif
    for (int kt = 0; kt < KT; kt++) {
#if ISO == 0
        asm volatile("cp.async.wait_group %0;\n" ::"n"(STAGES - 2)); // tile kt has landed (this thread's part)
        __syncthreads(); // everyone's part, and everyone is done with the stage refilled next
        if (kt + STAGES - 1 < KT)
            load((kt + STAGES - 1) % STAGES, kt + STAGES - 1);
        asm volatile("cp.async.commit_group;\n" ::);
        const unsigned sa = base + (kt % STAGES) * STG, sb = sa + ASZ;
#else
#if ISO == 1
        __syncthreads(); // the loop's barrier stays
#endif
        const unsigned sa = base + (kt % (STAGES - 1)) * STG, sb = sa + ASZ;
#endif
#pragma unroll
        for (int kk = 0; kk < BK / 16; kk++) {
            unsigned a[4][4], b[8][2];
#pragma unroll
            for (int i = 0; i < 4; i++) {
                const int r = wm * 64 + i * 16 + (lane & 15), c = kk * 2 + (lane >> 4);
                asm volatile("ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%0,%1,%2,%3}, [%4];\n"
                             : "=r"(a[i][0]), "=r"(a[i][1]), "=r"(a[i][2]), "=r"(a[i][3])
                             : "r"(sa + a_off(r, c)));
            }
#pragma unroll
            for (int j = 0; j < 4; j++) {
                const int r = kk * 16 + (lane & 15), c = wn * 8 + j * 2 + (lane >> 4);
                asm volatile("ldmatrix.sync.aligned.m8n8.x4.trans.shared.b16 {%0,%1,%2,%3}, [%4];\n"
                             : "=r"(b[2 * j][0]), "=r"(b[2 * j][1]), "=r"(b[2 * j + 1][0]), "=r"(b[2 * j + 1][1])
                             : "r"(sb + b_off(r, c)));
            }
#pragma unroll
            for (int i = 0; i < 4; i++)
#pragma unroll
                for (int j = 0; j < 8; j++)
                    asm volatile("mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 {%0,%1,%2,%3}, {%4,%5,%6,%7}, "
                                 "{%8,%9}, {%0,%1,%2,%3};\n"
                                 : "+f"(acc[i][j][0]), "+f"(acc[i][j][1]), "+f"(acc[i][j][2]), "+f"(acc[i][j][3])
                                 : "r"(a[i][0]), "r"(a[i][1]), "r"(a[i][2]), "r"(a[i][3]), "r"(b[j][0]), "r"(b[j][1]));
        }
    }
    const int g = lane >> 2, t = lane & 3;
#pragma unroll
    for (int i = 0; i < 4; i++)
#pragma unroll
        for (int j = 0; j < 8; j++) {
            const int r = row0 + wm * 64 + i * 16 + g, c = col0 + wn * 64 + j * 8 + 2 * t;
            *(float2 *)&C[(size_t)r * N + c] = make_float2(acc[i][j][0], acc[i][j][1]);
            *(float2 *)&C[(size_t)(r + 8) * N + c] = make_float2(acc[i][j][2], acc[i][j][3]);
        }
}
