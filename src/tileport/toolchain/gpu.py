"""Ask the NVIDIA driver (libcuda, through ctypes) what GPUs exist. No framework needed; None on a CPU machine."""
from __future__ import annotations

import ctypes
from dataclasses import dataclass


@dataclass(frozen=True)
class Gpu:
    index: int
    name: str
    arch: str  # "sm_90"
    memory_gib: float


@dataclass(frozen=True)
class DriverInfo:
    driver_version: str  # CUDA version the driver supports, e.g. "13.0"
    gpus: list[Gpu]


class NoDriver(Exception):
    pass


_CC_MAJOR, _CC_MINOR = 75, 76  # CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_{MAJOR,MINOR}


def probe() -> DriverInfo:
    """Raise :class:`NoDriver` (with the reason) when there is no usable driver."""
    try:
        cuda = ctypes.CDLL("libcuda.so.1")
    except OSError as exc:
        raise NoDriver(f"libcuda.so.1 not loadable ({exc})") from None
    rc = cuda.cuInit(0)
    if rc != 0:
        raise NoDriver(f"cuInit failed with CUresult {rc}")
    ver = ctypes.c_int()
    cuda.cuDriverGetVersion(ctypes.byref(ver))
    count = ctypes.c_int()
    cuda.cuDeviceGetCount(ctypes.byref(count))
    gpus = []
    for i in range(count.value):
        dev = ctypes.c_int()
        cuda.cuDeviceGet(ctypes.byref(dev), i)
        name = ctypes.create_string_buffer(256)
        cuda.cuDeviceGetName(name, 256, dev)
        major, minor = ctypes.c_int(), ctypes.c_int()
        cuda.cuDeviceGetAttribute(ctypes.byref(major), _CC_MAJOR, dev)
        cuda.cuDeviceGetAttribute(ctypes.byref(minor), _CC_MINOR, dev)
        mem = ctypes.c_size_t()
        cuda.cuDeviceTotalMem_v2(ctypes.byref(mem), dev)
        gpus.append(Gpu(i, name.value.decode(errors="replace"), f"sm_{major.value}{minor.value}",
                        round(mem.value / 2**30, 1)))
    v = ver.value
    return DriverInfo(f"{v // 1000}.{(v % 1000) // 10}", gpus)
