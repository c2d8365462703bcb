#version 450
// Bounds per axis from two specialization constants (`x >= COLS || y >= ROWS`): both sizes @spec, neither a
// parameter; the float constant stays one.
layout(local_size_x = 8, local_size_y = 8) in;
layout(constant_id = 1) const uint COLS = 64;
layout(constant_id = 2) const uint ROWS = 32;
layout(constant_id = 3) const float GAIN = 2.0;
layout(std430, binding = 0) readonly buffer In { float src[]; };
layout(std430, binding = 1) writeonly buffer Out { float dst[]; };
void main()
{
    uint x = gl_GlobalInvocationID.x, y = gl_GlobalInvocationID.y;
    if (x >= COLS || y >= ROWS)
        return;
    dst[y * COLS + x] = GAIN * src[y * COLS + x];
}
