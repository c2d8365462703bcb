/* fuzz_template.c — libFuzzer target: arbitrary bytes as a GLSL template, instantiated with a few defines (an
 * integer, a negative one, a double). Template instantiation edits user text line by line; it must never crash,
 * read out of bounds or trip UBSan, whatever the text (no #version, #version on the last line without a newline,
 * NUL-free binary junk). The stage tags' cut (vkat_template_compute_section) runs first, as the tuner's does: it
 * blanks lines, so its text is as long as the input's, and cutting that again changes nothing. The HLSL scanners
 * (hlsl.c: technique blocks, registers, the [numthreads] entry) and the workgroup-size rewrite read it too. */
#include "hlsl.h"
#include "local_size_rewrite.h"
#include "template.h"
#include "util.h"

#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const unsigned char *data, size_t size);

int LLVMFuzzerTestOneInput(const unsigned char *data, size_t size)
{
    char *text = vkat_strndup((const char *)data, size);
    if (!text)
        return 0;
    vkat_define defs[] = {{"TM", vkat_int(4)}, {"NEG", vkat_int(-7)}, {"ALPHA", vkat_float(0.125)}};
    char *prepared = NULL, *resized = NULL, name[64], names[3][64];
    const uint32_t wg[3] = {32, 2, 1};
    int rewritten = 0;
    if (vkat_hlsl_prepare(text, &prepared) == VKAT_OK && prepared && !strchr(prepared, 0)) /* NUL-ended */
        abort();
    vkat_hlsl_entry(text, 1, name, sizeof name);
    if (vkat_local_size_rewrite(text, wg, &resized, &rewritten) == VKAT_OK && !resized != !rewritten)
        abort();
    vkat_local_size_names(text, names);
    free(prepared);
    free(resized);
    char *out = NULL, *cut = NULL, *again = NULL;
    vkat_error err = {0};
    if (vkat_template_compute_section(text, "fuzz.comp", &cut, &err) == VKAT_OK && cut) {
        if (strlen(cut) != strlen(text) || vkat_template_compute_section(cut, "fuzz.comp", &again, &err) != VKAT_OK ||
            again)
            abort();
        free(text);
        text = cut;
    }
    if (vkat_template_instantiate(text, "fuzz.comp", defs, 3, &out, &err) == VKAT_OK) {
        /* The template's text must survive: everything after the #version line is still there. */
        if (!out || strlen(out) < strlen(text))
            abort();
    }
    free(out);
    free(text);
    return 0;
}
