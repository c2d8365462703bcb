// An HLSL compute shader as a Direct3D project writes it (tests/cli/hlsl_input.sh): a constant buffer, a read-only
// structured buffer at t0 and a read-write one at u0, the workgroup size in [numthreads], an entry point not main.
cbuffer Params : register(b0)
{
    uint count;
    float scale;
    float bias;
};

StructuredBuffer<float> values : register(t0);
RWStructuredBuffer<float> result : register(u0);

[numthreads(64, 1, 1)]
void CSMain(uint3 id : SV_DispatchThreadID)
{
    if (id.x >= count)
        return;
    result[id.x] = scale * values[id.x] + bias;
}
