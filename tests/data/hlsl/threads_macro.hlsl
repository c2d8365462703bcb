// The workgroup size from a macro of the shader's own, as HLSL projects often write it (tests/cli/hlsl_input.sh).
#define THREADS 128

RWStructuredBuffer<uint> data : register(u0);

[numthreads(THREADS, 1, 1)]
void Double(uint3 id : SV_DispatchThreadID)
{
    data[id.x] = 2u * data[id.x];
}
