/* test_vulkan.h — the runtime tests' Vulkan device: the loader opened with dlopen (as an application without a link
 * to libvulkan does), the first device, a compute queue with timestamps. For the test programs of tests/runtime/.
 *   int rc = test_vulkan_open(&vk, &destroy_device);   0: ready; 77: no device (skip, said why); 1: failed
 * It enables maintenance4 where the device has it and lists what it enabled in test_vulkan_features. */
#ifndef VKAT_TEST_VULKAN_H
#define VKAT_TEST_VULKAN_H
#define VK_NO_PROTOTYPES
#include "vkautotune_runtime_tune.h"

#include <dlfcn.h>
#include <stdint.h>
#include <stdio.h>

/* The features test_vulkan_open enabled, for vkat_rt_tune_desc.enabled_features: maintenance4 where the device has
 * it (kernels whose workgroup size is given by id need it). NULL-terminated. */
static const char *test_vulkan_features[2];

static int test_vulkan_open(vkat_rt_vulkan *vk, PFN_vkDestroyDevice *destroy_device)
{
    void *lib = dlopen("libvulkan.so.1", RTLD_NOW | RTLD_LOCAL);
    if (!lib) {
        printf("SKIPPED: no libvulkan.so.1\n");
        return 77;
    }
    PFN_vkGetInstanceProcAddr gipa;
    *(void **)&gipa = dlsym(lib, "vkGetInstanceProcAddr");
    PFN_vkCreateInstance create_instance = (PFN_vkCreateInstance)gipa(VK_NULL_HANDLE, "vkCreateInstance");
    VkApplicationInfo app = {VK_STRUCTURE_TYPE_APPLICATION_INFO};
    app.apiVersion = VK_API_VERSION_1_3;
    VkInstanceCreateInfo ici = {VK_STRUCTURE_TYPE_INSTANCE_CREATE_INFO};
    ici.pApplicationInfo = &app;
    VkInstance instance;
    if (create_instance(&ici, NULL, &instance) != VK_SUCCESS) {
        printf("SKIPPED: no Vulkan instance\n");
        return 77;
    }
    PFN_vkEnumeratePhysicalDevices enum_pd =
        (PFN_vkEnumeratePhysicalDevices)gipa(instance, "vkEnumeratePhysicalDevices");
    PFN_vkGetPhysicalDeviceQueueFamilyProperties get_qf =
        (PFN_vkGetPhysicalDeviceQueueFamilyProperties)gipa(instance, "vkGetPhysicalDeviceQueueFamilyProperties");
    PFN_vkCreateDevice create_device = (PFN_vkCreateDevice)gipa(instance, "vkCreateDevice");
    PFN_vkGetDeviceProcAddr gdpa = (PFN_vkGetDeviceProcAddr)gipa(instance, "vkGetDeviceProcAddr");
    VkPhysicalDevice pd;
    uint32_t npd = 1;
    VkResult er = enum_pd(instance, &npd, &pd);
    if ((er != VK_SUCCESS && er != VK_INCOMPLETE) || npd == 0) {
        printf("SKIPPED: no Vulkan device\n");
        return 77;
    }
    VkQueueFamilyProperties qf[16];
    uint32_t nqf = 16, family = UINT32_MAX;
    get_qf(pd, &nqf, qf);
    for (uint32_t i = 0; i < nqf && family == UINT32_MAX; i++)
        if ((qf[i].queueFlags & VK_QUEUE_COMPUTE_BIT) && qf[i].timestampValidBits)
            family = i;
    if (family == UINT32_MAX) {
        printf("SKIPPED: no compute queue with timestamps\n");
        return 77;
    }
    float prio = 1;
    VkDeviceQueueCreateInfo qci = {VK_STRUCTURE_TYPE_DEVICE_QUEUE_CREATE_INFO};
    qci.queueFamilyIndex = family;
    qci.queueCount = 1;
    qci.pQueuePriorities = &prio;
    VkPhysicalDeviceVulkan13Features v13 = {VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_3_FEATURES};
    VkPhysicalDeviceFeatures2 f2 = {VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2, &v13};
    PFN_vkGetPhysicalDeviceFeatures2 get_features =
        (PFN_vkGetPhysicalDeviceFeatures2)gipa(instance, "vkGetPhysicalDeviceFeatures2");
    PFN_vkGetPhysicalDeviceProperties get_props =
        (PFN_vkGetPhysicalDeviceProperties)gipa(instance, "vkGetPhysicalDeviceProperties");
    VkPhysicalDeviceProperties props;
    get_props(pd, &props);
    VkPhysicalDeviceVulkan13Features enable13 = {VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_3_FEATURES};
    if (get_features && props.apiVersion >= VK_API_VERSION_1_3) {
        get_features(pd, &f2);
        enable13.maintenance4 = v13.maintenance4;
    }
    test_vulkan_features[0] = enable13.maintenance4 ? "maintenance4" : NULL;
    VkDeviceCreateInfo dci = {VK_STRUCTURE_TYPE_DEVICE_CREATE_INFO};
    dci.pNext = enable13.maintenance4 ? &enable13 : NULL;
    dci.queueCreateInfoCount = 1;
    dci.pQueueCreateInfos = &qci;
    VkDevice device;
    if (create_device(pd, &dci, NULL, &device) != VK_SUCCESS) {
        printf("FAIL: vkCreateDevice\n");
        return 1;
    }
    PFN_vkGetDeviceQueue get_queue = (PFN_vkGetDeviceQueue)gdpa(device, "vkGetDeviceQueue");
    *destroy_device = (PFN_vkDestroyDevice)gdpa(device, "vkDestroyDevice");
    VkQueue queue;
    get_queue(device, family, 0, &queue);
    *vk = (vkat_rt_vulkan){instance, pd, device, queue, family, gipa, gdpa};
    return 0;
}
#endif
