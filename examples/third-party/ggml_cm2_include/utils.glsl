// Written here (no ggml code): utils.glsl's one function that mul_mm_cm2.comp names (its MUL_MAT_ID path),
// for trying that shader without the rest of a checkout (see types.glsl beside this file).
uint fastmod(uint a, uint b)
{
    return a % b;
}
