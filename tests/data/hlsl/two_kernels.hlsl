// Two kernels in one file, as Unity's .compute files hold them (#pragma kernel ...), and a global outside any cbuffer
// (glslang's $Global block, at binding 99 here); tests/cli/hlsl_input.sh tunes each by [kernel] entry.
#pragma kernel Clear
#pragma kernel Fill

RWStructuredBuffer<float> data : register(u0);
float value;

[numthreads(64, 1, 1)]
void Clear(uint3 id : SV_DispatchThreadID)
{
    data[id.x] = 0.0;
}

[numthreads(32, 1, 1)]
void Fill(uint3 id : SV_DispatchThreadID)
{
    data[id.x] = value + float(id.x);
}
