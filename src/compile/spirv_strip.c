/* spirv_strip.c — the debug-stripped copy of a module (spirv_strip.h), through SPIRV-Tools' optimizer with its
 * strip-debug pass alone (OpSource*, OpString, OpName, OpMemberName, OpLine, OpNoLine, OpModuleProcessed). */
#include "spirv_strip.h"
#include "util.h"

#include <spirv-tools/libspirv.h>
#include <stdlib.h>
#include <string.h>

vkat_result vkat_spirv_strip_debug(const vkat_spirv *in, vkat_spirv *out, vkat_error *err)
{
    memset(out, 0, sizeof *out);
    /* The input was validated after compiling; the pass only removes instructions, whatever the version. */
    spv_optimizer_t *opt = spvOptimizerCreate(SPV_ENV_UNIVERSAL_1_6);
    spv_optimizer_options opts = spvOptimizerOptionsCreate();
    spv_binary bin = NULL;
    vkat_result r = VKAT_OK;
    if (!opt || !opts) {
        r = vkat_fail(err, VKAT_ERR_NOMEM, NULL, 0, "SPIRV-Tools could not create an optimizer");
        goto done;
    }
    spvOptimizerOptionsSetRunValidator(opts, false);
    if (!spvOptimizerRegisterPassFromFlag(opt, "--strip-debug")) {
        r = vkat_fail(err, VKAT_ERR_INTERNAL, NULL, 0, "SPIRV-Tools has no strip-debug pass");
        goto done;
    }
    if (spvOptimizerRun(opt, in->words, in->count, &bin, opts) != SPV_SUCCESS || !bin) {
        r = vkat_fail(err, VKAT_ERR_VALIDATE, NULL, 0, "SPIRV-Tools could not strip the module's debug information");
        goto done;
    }
    out->words = malloc(bin->wordCount * sizeof *out->words);
    if (!out->words) {
        r = vkat_fail(err, VKAT_ERR_NOMEM, NULL, 0, "out of memory");
        goto done;
    }
    memcpy(out->words, bin->code, bin->wordCount * sizeof *out->words);
    out->count = bin->wordCount;
done:
    spvBinaryDestroy(bin);
    spvOptimizerOptionsDestroy(opts);
    spvOptimizerDestroy(opt);
    return r;
}
