// A Direct3D 11 Effects file (.fx): the compute shader and, after it, the framework's technique block that names
// it (tests/cli/hlsl_input.sh: the block is blanked, its lines kept).
RWStructuredBuffer<uint> counts : register(u0);

[numthreads(64, 1, 1)]
void CS(uint3 id : SV_DispatchThreadID)
{
    counts[id.x] = 3 * id.x + 1;
}

technique11 T0
{
    pass P0
    {
        SetVertexShader(NULL);
        SetPixelShader(NULL);
        SetComputeShader(CompileShader(cs_5_0, CS()));
    }
}
