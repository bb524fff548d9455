"""On the CPU: how tileiras 13.4 compiles ``ct.mma(a, b, acc)`` for fp8 against f16 operands (a minimal repro of why
the Triton attention tutorial's fp8 forward differs from its port in 5-11 of 8.4M e5m2 outputs; docs/triton.md).

    tileport compile benchmarks/probes/fp8_mma_acc.py::mma_acc \\
        --sig 'f8e5m2[64,32], f8e5m2[32,64], f32[64,64], f32[64,64], #64, #64, #32' --out build/fp8acc/e5m2
    tileport compile benchmarks/probes/fp8_mma_acc.py::mma_acc \\
        --sig 'f16[64,32], f16[32,64], f32[64,64], f32[64,64], #64, #64, #32' --out build/fp8acc/f16
    nvdisasm -c build/fp8acc/*/mma_acc_*.sm_90.cubin | grep -E 'GMMA|FADD'

Seen (2026-12-06): e5m2 gives ``QGMMA.64x64x32.F32.E5M2.E5M2 R24, R56, gdesc[UR4], RZ`` (the product from a zero C)
followed by 32 ``FADD``s into the accumulator; f16 gives ``HGMMA.64x64x16.F32 R24, gdesc[UR4], R24`` (the
accumulator is the C operand, no FADD). Triton feeds the accumulator to its QGMMA as C, so the two round differently.
"""
import cuda.tile as ct


@ct.kernel
def mma_acc(a, b, c, out, M: ct.Constant[int], N: ct.Constant[int], K: ct.Constant[int]):
    acc = ct.load(c, index=(0, 0), shape=(M, N))
    acc = ct.mma(ct.load(a, index=(0, 0), shape=(M, K)), ct.load(b, index=(0, 0), shape=(K, N)), acc)
    ct.store(out, index=(0, 0), tile=acc)
