"""gated_delta_recurrent: the gated delta rule (Gated DeltaNet's linear attention), token by token — the decode /
short-sequence form (tileport.kernels.gated_delta_recurrent). Per batch b and head h, with the state S [DK, DV]
starting at 0 (f32):

    S' = exp(g_t) S_{t-1};   u_t = beta_t (v_t - S'^T k_t);   S_t = S' + k_t u_t^T;   o_t = scale * S_t^T q_t

q, k [B, H, T, DK] and v [B, H, T, DV] (f16/bf16, DK and DV each 64 or 128; k conventionally L2-normalised),
g (log decay, <= 0) and beta (write strength, in (0, 1)) [B, H, T] float32 → o [B, H, T, DV] in v's dtype; scale
defaults to DK ** -0.5. One block per (batch x head, 32 state columns) keeps its [DK, 32] f32 state tile in
registers and walks the T steps. Its per-step outputs go to a time-major staging buffer [T, B*H, DV] (the one
layout a proven port lets a block's sequential stores take), which the host reorders into o with one copy;
for T == 1 (decode) or B*H == 1 that layout is o's own and the kernel writes o directly. The chunked form
(gated_delta_chunked) is the one for long sequences."""
from __future__ import annotations

from tileport.kernels.gated_delta_recurrent import gated_delta_recurrent as kernel

from . import _common as C

DTYPES = C.HALVES
AUX_DTYPES = ("float32",)   # g and beta
CEILING = "copy"   # memory-bound decode: % of the device copy bandwidth (bench.runner.apply_ceiling)
#: no torch.compile path: dynamo unrolls torch_eager's T-step Python loop (T = 1024 at mid) into one graph,
#: whose compile took most of 500 s of an H100 call for one case (bench-s20 part2, bench-s22); eager stays
TORCH_COMPILE = False
HEAD_DIMS = (64, 128)
BV = 32                     # state columns per block
PORT_SIGNATURES = C.signatures("q={dtype}[?,?,?]/?,?,1, k={dtype}[?,?,?]/?,?,1, v={dtype}[?,?,?]/?,?,1, "
                               "g=f32[?,?]/?,1, beta=f32[?,?]/?,1, o={dtype}[?]/1, scale=f32, DK=#{dk}, BV=#{bv}",
                               dtype=DTYPES, dk=HEAD_DIMS, bv=[BV])
#: (batch, heads, sequence length, head dim). large is shorter than the chunked op's (T = 4096): this is the
#: decode form, one step after another, and its float64 reference and eager baseline loop over T in Python.
SHAPES = {"small": (1, 2, 64, 64), "ragged": (2, 3, 100, 128), "mid": (2, 16, 1024, 128),
          "large": (4, 32, 1024, 128)}


def operands(q, k, v, g, beta):
    """([B*H, T, DK] views of q and k, [B*H, T, DV] of v, [B*H, T] of g and beta), B*H, T, DK, DV — after checking
    what both gated delta kernels need. No copies: a tensor whose leading dimensions do not collapse is refused."""
    C.check("q", q, DTYPES, ndim=4)
    C.check("k", k, DTYPES, ndim=4, like=q)
    C.check("v", v, DTYPES, ndim=4, like=q)
    b, h, t, dk = q.shape
    dv = v.shape[3]
    if tuple(k.shape) != tuple(q.shape) or tuple(v.shape[:3]) != (b, h, t):
        raise ValueError(f"q {tuple(q.shape)}, k {tuple(k.shape)}, v {tuple(v.shape)}: k must have q's shape "
                         f"[B, H, T, DK] and v must be [{b}, {h}, {t}, DV]")
    if dk not in HEAD_DIMS or dv not in HEAD_DIMS:
        raise ValueError(f"head dims DK={dk}, DV={dv}: the kernels take {' or '.join(map(str, HEAD_DIMS))} for each")
    for name, x in (("g", g), ("beta", beta)):
        C.check(name, x, AUX_DTYPES, ndim=3)
        if tuple(x.shape) != (b, h, t):
            raise ValueError(f"{name} has shape {tuple(x.shape)}, it must be ({b}, {h}, {t}) (float32 per step)")
        if x.get_device() != q.get_device():
            raise ValueError(f"{name} is on {x.device}, q on {q.device}")
    z = b * h
    views = [C.view(name, x, shape) for name, x, shape in (
        ("q", q, (z, t, dk)), ("k", k, (z, t, dk)), ("v", v, (z, t, dv)), ("g", g, (z, t)), ("beta", beta, (z, t)))]
    return views, z, t, dk, dv


def staging(o, n):
    """A flat buffer of n elements like o, for the kernel's staged output; ValueError past the 32-bit offsets."""
    import torch

    if n > C.MAX_OFFSET:
        raise ValueError(f"the staged output holds {n} elements: more than the kernels' 32-bit indices address")
    return torch.empty(n, dtype=o.dtype, device=o.device)


def gated_delta_recurrent(q, k, v, g, beta, scale=None, *, backend=None, out=None):
    """o [B, H, T, DV] of the gated delta rule over q, k [B, H, T, DK], v [B, H, T, DV], g, beta [B, H, T] (f32)."""
    views, z, t, dk, dv = operands(q, k, v, g, beta)
    o = C.output(out, v.shape, v)
    scale = float(dk ** -0.5 if scale is None else scale)
    direct = t == 1 or z == 1          # the time-major [T, B*H, DV] staging layout is o's own
    stage = o.view(-1) if direct else staging(o, t * z * dv)
    C.launch((z * (dv // BV) if t else 0, 1, 1), kernel, (*views, stage, scale, dk, BV), backend)
    if not direct and z and t:
        o.view(z, t, dv).copy_(stage.view(t, z, dv).transpose(0, 1))
    return o


def recurrence(q, k, v, g, beta, scale=None):
    """The recurrence, one step after another, in the inputs' dtype (float64 for the reference)."""
    import torch

    b, h, t, dk = q.shape
    scale = dk ** -0.5 if scale is None else scale
    s = torch.zeros((b, h, dk, v.shape[-1]), dtype=q.dtype, device=q.device)
    o = torch.empty_like(v)
    for i in range(t):
        s = s * g[..., i, None, None].exp()
        kt = k[..., i, :]
        u = beta[..., i, None] * (v[..., i, :] - (kt.unsqueeze(-2) @ s).squeeze(-2))
        s = s + kt.unsqueeze(-1) * u.unsqueeze(-2)
        o[..., i, :] = scale * (q[..., i, :].unsqueeze(-2) @ s).squeeze(-2)
    return o


def reference(q, k, v, g, beta, scale=None):
    return recurrence(*C.f64(q, k, v, g, beta), scale)


def torch_eager(q, k, v, g, beta, scale=None):
    """What a PyTorch user without a kernel runs (the bench's comparison): the same step loop in float32 eager
    (a few small kernels per step), rounded to v's dtype."""
    return recurrence(q.float(), k.float(), v.float(), g, beta, scale).to(v.dtype)


def gated_inputs(shape, dtype, device):
    """q, v standard normal; k L2-normalised per step (so the delta rule's state stays bounded); g =
    logsigmoid(x + 3) (decay factors exp(g) mostly 0.9-0.99, so the state carries across many steps and chunks);
    beta = sigmoid(x)."""
    import torch

    b, h, t, d = shape
    q, v = C.randn((b, h, t, d), dtype, device), C.randn((b, h, t, d), dtype, device)
    k = torch.nn.functional.normalize(torch.randn((b, h, t, d), device=device), dim=-1).to(getattr(torch, dtype))
    g = torch.nn.functional.logsigmoid(torch.randn((b, h, t), device=device) + 3.0)
    beta = torch.randn((b, h, t), device=device).sigmoid()
    return (q, k, v, g, beta), {}


def sample_inputs(case, dtype, device):
    return gated_inputs(C.shape(SHAPES, case), dtype, device)


def tolerance(dtype):
    """Rounding o to f16/bf16 dominates (numpy emulation of the kernel: max error 5e-4 / 4e-3 for |o| up to 1.3)."""
    return C.tolerance_of({"float16": (5e-3, 5e-3), "bfloat16": (2e-2, 2e-2)}, dtype)


def bytes_moved(args, kwargs):
    """Each input read once and o written once (the staging copy's extra traffic, 2x o's bytes when T > 1, is not
    counted)."""
    return C.nbytes(*args[:5]) + C.nbytes(args[2])


def flops(args, kwargs):
    """7 B H T DK DV: per state element and step, the decay (1), S'^T k (2), the rank-one update (2), S^T q (2)."""
    q, v = args[0], args[2]
    b, h, t, dk = q.shape
    return 7 * b * h * t * dk * v.shape[3]
