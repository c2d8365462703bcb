/* spirv_strip.c — the debug-stripped copy of a module (spirv_strip.h), through SPIRV-Tools' optimizer with its
 * strip-debug pass alone (OpSource*, OpString, OpName, OpMemberName, OpLine, OpNoLine, OpModuleProcessed). */
#include "spirv_strip.h"

vkat_result vkat_spirv_strip_debug(const vkat_spirv *in, vkat_spirv *out, vkat_error *err)
{
    /* The input was validated after compiling; the pass only removes instructions, whatever the version. */
    static const char *const flags[] = {"--strip-debug"};
    return vkat_spirv_run_passes(in, 0, flags, 1, out, err);
}
