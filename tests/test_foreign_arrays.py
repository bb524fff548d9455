"""The Rust backend at ct.launch takes the arrays cuTile Python's ct.launch takes: a GPU array of another library
(CuPy's, anything speaking `__cuda_array_interface__` or DLPack on a CUDA device) becomes a torch tensor over the same
memory before the plan reads it (runtime.library.foreign_arrays), and a CuPy stream its handle. The launch itself
runs on the GPU (tests/gpu/test_runtime_gpu.py); here, which arguments are converted and how, with a stand-in for
torch's two conversions."""
import pytest

from tileport.errors import BackendError
from tileport.runtime.intercept import raw_stream
from tileport.runtime.library import foreign_arrays


class _Tensor:
    def __init__(self, via, of):
        self.via, self.of = via, of


class _Torch:
    Tensor = _Tensor

    @staticmethod
    def as_tensor(v):
        return _Tensor("cuda_array_interface", v)

    @staticmethod
    def from_dlpack(v):
        return _Tensor("dlpack", v)


class _Cai:
    __cuda_array_interface__ = {"shape": (4,), "typestr": "<f4", "data": (256, False), "version": 3}


class _DLPack:
    def __init__(self, device_type):
        self.device_type = device_type

    def __dlpack__(self, stream=None):
        raise AssertionError("converted through torch.from_dlpack, not read here")

    def __dlpack_device__(self):
        return (self.device_type, 0)


def test_tensors_and_scalars_alone_are_left_as_they_are():
    args = (_Tensor("torch", None), 3, 2.5, True, None)
    assert foreign_arrays(args, _Torch) is None


def test_each_foreign_gpu_array_becomes_a_tensor_over_its_memory():
    cai, dl, t = _Cai(), _DLPack(2), _Tensor("torch", None)
    out = foreign_arrays((cai, t, dl, 64), _Torch)
    assert [getattr(x, "via", x) for x in out] == ["cuda_array_interface", "torch", "dlpack", 64]
    assert out[0].of is cai and out[1] is t and out[2].of is dl


def test_a_list_of_arrays_has_its_items_converted():
    cai = _Cai()
    out = foreign_arrays(([cai, _Tensor("torch", None)], 1), _Torch)
    assert isinstance(out[0], list) and out[0][0].via == "cuda_array_interface" and out[0][1].via == "torch"


def test_host_memory_is_not_taken_for_a_gpu_array():
    """A numpy array speaks DLPack on the CPU (device type 1): left alone, for the plan to refuse by its type."""
    assert foreign_arrays((_DLPack(1),), _Torch) is None


def test_a_cupy_stream_gives_its_handle():
    class CupyStream:
        ptr = 1234

    assert raw_stream(7) == 7
    assert raw_stream(CupyStream()) == 1234
    with pytest.raises(BackendError, match="CuPy stream"):
        raw_stream(object())


def test_a_malformed_array_interface_is_said_in_one_line():
    class Broken:
        __cuda_array_interface__ = {"shape": "?"}

    class Strict(_Torch):
        @staticmethod
        def as_tensor(v):
            raise TypeError("bad __cuda_array_interface__")

    with pytest.raises(BackendError, match="Broken speaks a GPU array protocol .* bad __cuda_array_interface__"):
        foreign_arrays((Broken(),), Strict)
