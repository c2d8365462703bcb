#!/usr/bin/env python3
"""Every device extension each Vulkan device offers (vkEnumerateDeviceExtensionProperties), one per line, through
the loader with ctypes and no other dependency. `vkautotune devices` lists only the extensions the tuner uses; this
is for asking what else a driver has (issue 21: is there any path that copies global memory to shared memory without
registers?).

  python3 bench/isolate/vk_extensions.py [--grep WORD]...
"""
import argparse
import ctypes
import sys


class InstanceCreateInfo(ctypes.Structure):
    _fields_ = [("sType", ctypes.c_uint32), ("pNext", ctypes.c_void_p), ("flags", ctypes.c_uint32),
                ("pApplicationInfo", ctypes.c_void_p), ("enabledLayerCount", ctypes.c_uint32),
                ("ppEnabledLayerNames", ctypes.c_void_p), ("enabledExtensionCount", ctypes.c_uint32),
                ("ppEnabledExtensionNames", ctypes.c_void_p)]


class ExtensionProperties(ctypes.Structure):
    _fields_ = [("extensionName", ctypes.c_char * 256), ("specVersion", ctypes.c_uint32)]


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--grep", action="append", default=[], help="print only extensions containing WORD (any case)")
    args = ap.parse_args()
    try:
        vk = ctypes.CDLL("libvulkan.so.1")
    except OSError as e:
        print("vk_extensions.py: no Vulkan loader: %s" % e, file=sys.stderr)
        return 1
    info = InstanceCreateInfo(sType=1)  # VK_STRUCTURE_TYPE_INSTANCE_CREATE_INFO, Vulkan 1.0, no layers
    inst = ctypes.c_void_p()
    if vk.vkCreateInstance(ctypes.byref(info), None, ctypes.byref(inst)) != 0:
        print("vk_extensions.py: vkCreateInstance failed", file=sys.stderr)
        return 1
    n = ctypes.c_uint32()
    vk.vkEnumeratePhysicalDevices(inst, ctypes.byref(n), None)
    devs = (ctypes.c_void_p * n.value)()
    vk.vkEnumeratePhysicalDevices(inst, ctypes.byref(n), devs)
    for d, dev in enumerate(devs):
        props = ctypes.create_string_buffer(4096)  # VkPhysicalDeviceProperties (under 1 KiB); deviceName at 20
        vk.vkGetPhysicalDeviceProperties(ctypes.c_void_p(dev), props)
        name = props.raw[20:276].split(b"\0")[0].decode()
        m = ctypes.c_uint32()
        vk.vkEnumerateDeviceExtensionProperties(ctypes.c_void_p(dev), None, ctypes.byref(m), None)
        exts = (ExtensionProperties * m.value)()
        vk.vkEnumerateDeviceExtensionProperties(ctypes.c_void_p(dev), None, ctypes.byref(m), exts)
        names = sorted(e.extensionName.decode() for e in exts)
        shown = [x for x in names if not args.grep or any(w.lower() in x.lower() for w in args.grep)]
        print("device %d: %s: %d extensions%s" % (d, name, len(names), " (%d shown)" % len(shown) if args.grep else ""))
        for x in shown:
            print("  " + x)
    vk.vkDestroyInstance(inst, None)
    return 0


if __name__ == "__main__":
    sys.exit(main())
