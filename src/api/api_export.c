/* api_export.c — vkat_export_stored (include/vkautotune.h): the public description of an export handed to the
 * exporter (run/tune.c's vkat_tune_export_db), field by field so that the exporter's own request may change
 * without changing the public header. */
#include "tune.h"

vkat_result vkat_export_stored(const vkat_export_desc *desc, vkat_store *store, size_t *exported, vkat_error *err)
{
    vkat_export_request req = {0};
    req.spaces = desc->spaces;
    req.space_count = desc->space_count;
    req.inst = desc->inst;
    req.device = desc->device;
    req.all_in_db = desc->all_in_db;
    req.problem = desc->problem;
    req.dir = desc->dir;
    req.header = desc->header;
    req.profile = desc->profile;
    req.candidates = desc->candidates;
    return vkat_tune_export_db(&req, store, exported, err);
}
