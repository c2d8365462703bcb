/* test_device_key.c — device identity (src/device/device_key.c), the one rule that the results database, export
 * and the grouping of identical GPUs into one search share: same name, vendor and device ids, driver version and
 * driver UUID; the pipeline-cache UUID and the driver's version string do not count. No device needed. */
#include "device_key.h"
#include "test.h"

#include <string.h>

static vkat_device_info h200(void)
{
    vkat_device_info d;
    memset(&d, 0, sizeof d);
    snprintf(d.name, sizeof d.name, "NVIDIA H200");
    d.vendor = "NVIDIA";
    d.vendor_id = 0x10de;
    d.device_id = 0x2335;
    d.driver_version = 0x9127c100;
    snprintf(d.driver_version_string, sizeof d.driver_version_string, "580.159.4.0");
    for (int i = 0; i < 16; i++) {
        d.driver_uuid[i] = (uint8_t)(0xa0 + i);
        d.pipeline_cache_uuid[i] = (uint8_t)i;
    }
    return d;
}

int main(void)
{
    vkat_device_info a = h200(), b = h200();
    CHECK(vkat_device_identical(&a, &b));

    vkat_device_key key;
    vkat_device_key_from_info(&a, &key);
    CHECK_STR(key.name, "NVIDIA H200");
    CHECK_STR(key.vendor, "NVIDIA");
    CHECK_STR(key.driver_uuid, "a0a1a2a3-a4a5-a6a7-a8a9-aaabacadaeaf");
    CHECK_STR(key.pipeline_cache_uuid, "00010203-0405-0607-0809-0a0b0c0d0e0f");
    a.vendor = NULL;
    vkat_device_key_from_info(&a, &key);
    CHECK_STR(key.vendor, "unknown");
    a = h200();

    /* What makes two devices different. */
    b.driver_version++;
    CHECK(!vkat_device_identical(&a, &b));
    b = h200();
    b.driver_uuid[15] ^= 1;
    CHECK(!vkat_device_identical(&a, &b));
    b = h200();
    b.device_id++;
    CHECK(!vkat_device_identical(&a, &b));
    b = h200();
    b.vendor_id = 0x1002;
    CHECK(!vkat_device_identical(&a, &b));
    b = h200();
    snprintf(b.name, sizeof b.name, "NVIDIA H100");
    CHECK(!vkat_device_identical(&a, &b));

    /* What does not: the pipeline cache's UUID and the decoded version string (never part of the identity). */
    b = h200();
    b.pipeline_cache_uuid[0] ^= 1;
    snprintf(b.driver_version_string, sizeof b.driver_version_string, "580.159.04");
    CHECK(vkat_device_identical(&a, &b));

    /* Keys read back from a database compare the same way. */
    vkat_device_key ka, kb;
    vkat_device_key_from_info(&a, &ka);
    vkat_device_key_from_info(&b, &kb);
    CHECK(vkat_device_key_equal(&ka, &kb));
    kb.driver_version++;
    CHECK(!vkat_device_key_equal(&ka, &kb));
    TEST_END();
}
