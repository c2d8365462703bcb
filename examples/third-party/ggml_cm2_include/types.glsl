// Written here (no ggml code): the few names ggml's types.glsl gives an f16 matmul (DATA_A_F16), for trying
// vulkan-shaders/mul_mm_cm2.comp without the rest of a checkout. Found only through ggml_mul_mm_cm2.ini's
// include_dirs, after the including file's own directory: a checkout's own types.glsl wins.
#if !defined(VKAT_GGML_TYPES_SHIM)
#define VKAT_GGML_TYPES_SHIM
#extension GL_EXT_shader_explicit_arithmetic_types_int32 : require
#extension GL_EXT_shader_explicit_arithmetic_types_int16 : require
#extension GL_EXT_shader_16bit_storage : require
#if defined(DATA_A_F16)
#define QUANT_K 1
#define QUANT_R 1
#define A_TYPE float16_t
#else
#error this shim covers DATA_A_F16 only: point GGML_VULKAN_SHADERS at a full checkout
#endif
#endif
