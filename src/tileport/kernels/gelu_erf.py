"""gelu_erf: y = x * Phi(x) = 0.5 * x * (1 + erf(x / sqrt(2))), the exact (erf) form of GELU.

cuTile Python has no erf; the kernel uses Abramowitz & Stegun 7.1.26 for erfc(|z|) = (a1 t + ... + a5 t^5) e^(-z^2),
t = 1 / (1 + p |z|), |error| < 1.5e-7, written for few instructions per element (at 16 bits the kernel asks twice
the elements per second of the f32 form; the last instruction saved gained nothing measurable: what bounds the
16-bit form is how many loads are in flight, below):
- with h = 0.5 x erfc(|x| / sqrt(2)), gelu(x) = x - h for x >= 0 and h for x < 0, i.e. max(x, 0) - |h| (no select,
  and no cancellation in 1 + erf(z) for negative x: more accurate than the textbook form); |h| is the product
  |x| (q t) e^(-x^2 / 2) of non-negative factors, so the last multiply and the subtraction are one FMA;
- 1 / sqrt(2) and the 0.5 are folded into p and the a_i; e^(-z^2) is one flush-to-zero exp2 of x^2 * -log2(e) / 2;
- t is an approximate flush-to-zero reciprocal (its denominator is >= 1: no subnormal fix-up);
- x is clamped at 10 inside h only (h < 1e-22 there), so that gelu(inf) = inf instead of inf * 0; the max keeps
  a NaN (tests/gpu: test_gelu_erf_at_special_values).
Against the textbook form: 16% fewer sm_90 instructions, bf16 large 74% -> 79% of copy bandwidth
(benchmarks/results/h200/tuning/flat-lean); the FMA ending: one instruction fewer per element again (the bf16
4096-element cubin 232 -> 224 instructions, its loop 8 elements per pass; benchmarks/probes/spill_check.py counts them).
Math in f32, any input dtype.

The block's B elements are rows of W gathered and scattered at computed offsets, not one padded tile load: tileiras
13.4 compiles a padded 16-bit tile load to a loop of one 16-byte load per thread in flight (77-79% of copy bandwidth
at 8192 x 4096), while the gather, masked per row of W = 8 elements, is 16-byte vector loads all issued up front
(the sm_90 cubin at 4096 per block: 4 `LDG.E.128` per thread, no branch; docs/toolchain.md). A length that is not a
multiple of W takes the RAGGED entry, masked per element (scalar loads: slower, right).
"""
import cuda.tile as ct

DEMO_SIGNATURE = "x=f16[?]/1, y=f16[?]/1, n=i32, R=#128, W=#8, B=#1024, RAGGED=#false"


@ct.function
def gelu(x):
    xc = ct.minimum(x, 10.0)
    # t = 1 / (1 + p |x| / sqrt(2)), p = 0.3275911
    t = ct.truediv(1.0, 1.0 + 0.23164188826636045 * ct.abs(xc), rounding_mode=ct.RoundingMode.APPROX,
                   flush_to_zero=True)
    # 0.5 * (a1 + a2 t + ... + a5 t^4), a = 0.254829592, -0.284496736, 1.421413741, -1.453152027, 1.061405429;
    # Horner form, one step per line
    p = 0.5307027145 * t - 0.7265760135
    p = p * t + 0.7107068705
    p = p * t - 0.142248368
    p = p * t + 0.127414796
    # |h| = 0.5 |x| erfc(|x| / sqrt(2)) = m e, m = |x| (p t) >= 0, with e^(-x^2 / 2) = 2^(x^2 * -log2(e) / 2);
    # x = -inf gives m = inf * 0 = NaN, as PyTorch's gelu (-inf * 0) does
    m = ct.abs(xc) * (p * t)
    e = ct.exp2(xc * xc * -0.7213475204444817, flush_to_zero=True)
    return ct.maximum(x, 0.0, propagate_nan=True) - m * e   # NaN in, NaN out (min/max drop NaN by default)


# 8 CTAs per SM, 4096-element 16-bit blocks: 80-81% of copy bandwidth (tuning/gelu-erf-gather; the tiled form
# under the same hint: 77-78%, and 69-72% at 1024 per block: tuning/flat-lean)
@ct.kernel(occupancy=8)
def gelu_erf(x, y, n: int, R: ct.Constant[int], W: ct.Constant[int], B: ct.Constant[int], RAGGED: ct.Constant[bool]):
    # x, y: n elements; the block's B = R * W of them as R rows of W (B passed by the host: a tile's length is a
    # constant of its own in Rust)
    rows = ct.reshape(ct.bid(0) * R + ct.arange(R, dtype=ct.int32), (R, 1))
    cols = ct.reshape(ct.arange(W, dtype=ct.int32), (1, W))
    at = rows * W + cols
    inside = (rows < n // W) & (cols < W)   # whole rows (n a multiple of W): one mask per row of 16 bytes
    if RAGGED:
        inside = at < n   # per element
    offs = ct.reshape(at, (B,))
    ok = ct.reshape(inside, (B,))
    t = ct.astype(ct.gather(x, offs, mask=ok), ct.float32)
    ct.scatter(y, offs, ct.astype(gelu(t), y.dtype), mask=ok)
