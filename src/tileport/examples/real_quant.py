"""real_quant: 4-bit packing as quantization kernels write it, in one kernel the port must prove.

Two 4-bit codes per byte: each value scaled by its row's absolute maximum, offset by 8 and floored (`ct.floor(x /
scale + 8.0)`), clamped to [0, 15], converted to int32, masked and shifted (`lo | (hi << 4)`), and narrowed to
uint8 with `astype` — a wrapping integer truncation (Tile IR `trunci`), which the port declares in its module with
the `overflow` attribute cutile 0.3.1's own `trunci` leaves out. The row's scale is stored beside the codes.
"""
import cuda.tile as ct

DEMO_SIGNATURE = "x=f32[?,?]/?,1, codes=u8[?,?]/?,1, scales=f32[?]/1, H=#128"


@ct.kernel
def real_quant(x, codes, scales, H: ct.Constant[int]):
    row = ct.bid(0)
    lo = ct.load(x, (row, 0), (1, H), padding_mode=ct.PaddingMode.ZERO)
    hi = ct.load(x, (row, 1), (1, H), padding_mode=ct.PaddingMode.ZERO)
    amax = ct.maximum(ct.max(ct.abs(lo)), ct.max(ct.abs(hi)))
    scale = ct.maximum(amax, 1e-8) / 7.5
    qlo = ct.minimum(ct.maximum(ct.floor(lo / scale + 8.0), 0.0), 15.0).astype(ct.int32)
    qhi = ct.minimum(ct.maximum(ct.floor(hi / scale + 8.0), 0.0), 15.0).astype(ct.int32)
    packed = (qlo & 0xF) | ((qhi & 0xF) << 4)
    ct.store(codes, (row, 0), packed.astype(ct.uint8))
    ct.store(scales, (row,), scale.reshape((1,)))
