"""The construct coverage table: Python construct → Rust emission → status → example kernel → test.

One table drives three things: the emitter refuses every construct whose row is not ``supported`` (with the file,
line, column and this table's id), tests port every supported row's example kernel and require IR equivalence,
and ``docs/coverage.md`` is generated from it.
"""
from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Construct:
    id: str
    python: str
    rust: str
    status: str          # "supported" | "planned"
    example: str | None  # example kernel (src/tileport/examples) that exercises it
    note: str = ""


S, P = "supported", "planned"

COVERAGE: tuple[Construct, ...] = (
    Construct("param-array-in", "array parameter that is only read", "`&Tensor<E, { [-1, ...] }>`; one named like "
              "a local of cutile's generated launcher (`pred`, `valid_shape`, ..) renamed `pred_` in the Rust "
              "entry (the launcher binds `let pred` beside it; the ABI keeps the name: SMALL_KERNELS forms5)", S,
              "vector_add"),
    Construct("param-array-out", "array stored once per block at exactly (bid(0), ..) with the stored tile's shape",
              "`&mut Tensor<E, { [T, ...] }>` (safe block-owned partition; launch grid = partition grid)", S,
              "vector_add"),
    Construct("param-scalar", "scalar parameter (`int`, `float`; `ct.ScalarInt64` for an int64 one)",
              "`name: i32` / `name: f32` / `name: i64`; one named like a local the generated launcher reads or "
              "binds after the parameters (`ctx`, `function`, `validator`, ..) renamed `ctx_` in the Rust entry, "
              "as an array is (SMALL_KERNELS gen8_forms), and so is one named like a cutile function the kernel's "
              "Rust calls (`max: int` beside `ct.maximum`) or like a Rust keyword (`type`, `mod`, `ref`: `type_`; "
              "`loop`, `let`, `mut`, `unsafe`, `const`, `fn`, `pub`, which the Rust also writes, are refused)", S,
              "scale_cast"),
    Construct("param-constant-int", "`ct.Constant[int]` parameter", "`const NAME: i32` const generic; one named "
              "`E` (an expert count) is spelled as its value, one entry per value: cutile 0.3.1's compiler takes a "
              "const generic `E` for its ops' element type parameter and panics; one named like a cutile function the "
              "kernel's Rust calls (`exp` beside `ct.exp`) or like a Rust keyword (`type`) is refused, naming the "
              "clash", S, "vector_add"),
    Construct("param-constant-other", "`ct.Constant[float|bool]` parameter", "the value as a literal, one entry per distinct value (`leaky_relu_slope_0_2`; port.json maps each launch to its entry)", S,
              None),
    Construct("bid", "`ct.bid(k)`", "`get_tile_block_id().k`", S, "vector_add"),
    Construct("load-tile", "`ct.load(a, index=(...), shape=(...))` (no padding_mode) at a block id, a literal or a "
              "loop index counted by `ct.num_tiles` (any other index: refused — Python reads unchecked, cutile asserts; "
              "a loop over another array's tiles of another extent, an int4 GEMM's packed weights: the Tile IR load, "
              "unchecked as in cuTile Python, cutile's check would assert); "
              "extents computed from constants (`N * N`, spelled as their value); `shape=()`: one element as a 0-d "
              "tile; an index that is a 0-d tile (`row = ct.gather(ids, t)`) or an i64 scalar (an int64 token id's "
              "`.item()`), in loads and stores",
              "`make_partition_view(a, shape![..], padding::None, dim_map::Identity, get_tensor_token(a))"
              ".load([..])`; a 0-d tile index as its scalar, an i64 one truncated to i32 (`trunci_wrapping(.., "
              "overflow::None)`) as cuTile Python truncates it (tests/test_port.py SMALL_KERNELS `gidx`, `gstore`)",
              S, "vector_add"),
    Construct("load-tile-padded", "`ct.load(..., padding_mode=ct.PaddingMode.ZERO)`",
              "`a.partition(shape![..]).load([..])`", S, "scale_cast"),
    Construct("load-padded-offset", "padded `ct.load` at a computed tile index (`index=(bm, bn + HALF)`)",
              "`load_view_tko(&view, [..], ..)`: a tile past the edge reads padding, as in cuTile Python; the checked "
              "`.load` would add an in-kernel assert Python does not have", S, "silu_and_mul"),
    Construct("load-tile-padded-other", "`ct.load(..., padding_mode=NEG_INF|POS_INF|NAN|NEG_ZERO)`",
              "`make_partition_view(a, shape![..], padding::NegInf, ...)`", S, None),
    Construct("load-options", "`ct.load(..., latency=L, allow_tma=False)` (constant L, literal bool)",
              "`view.load_pipelined::<L>([..])`; with `allow_tma=False` the Tile IR load with `tma::Disabled` — the "
              "hints the reference carries, none added", S, "matmul_hints"),
    Construct("load-order", "`ct.load(..., order=(..))` (a literal permutation, `'C'` or `'F'`)",
              "`a.partition_permuted(shape![..], const_array![..])` (zero padding) or `make_partition_view(.., "
              "const_array![..], ..)`: the order is the view's dim map, the index stays in tile-axis order", S,
              "transpose"),
    Construct("load-unchecked", "`ct.load(..., check_bounds=False)`, `ct.store(..., check_bounds=False)`",
              "the same load or store without the in-range claim (`inbounds`) cutile 0.3.1 cannot state: irdiff's "
              "inbounds-hint (the port refines the reference)", S, "real_idioms3"),
    Construct("load-memory-order", "`ct.load(.., memory_order=RELAXED|ACQUIRE, memory_scope=BLOCK|DEVICE|SYS)`; "
              "an acquiring one only where no memory operation follows it (no loop or branch around it)",
              "the Tile IR load with that ordering and scope: `load_view_tko(&view, [..], ordering::Relaxed, "
              "scope::Device, None, tma::Enabled)` (kept when its value is never read: an ordered load is an effect)",
              S, "real_ordering", "an acquiring load before other memory operations is refused with the reason: cuTile Python "
              "joins its token into every later one, and the port's views start from their array's own token; "
              "docs/corpus.md (limits)"),
Construct("store-block-owned", "`ct.store(out, index=(bid..), tile=t)` on a block-owned output; a literal 0 "
              "at dimension k > 0 is accepted under the recorded precondition that the grid has extent 1 there",
              "`out.store(t)` (ranks 1 to 3; cutile has no block-owned store above: a rank-4+ array's is written as "
              "in store-bijective)", S, "vector_add"),
    Construct("store-inplace", "an array both loaded and stored (updated in place: RoPE on q/k, accumulations, a "
              "gradient written over the logits it was computed from), in straight-line code, loops and `if`s, any "
              "number of stores",
              "`&Tensor`; each load through a view made on the array's last-store token (`make_partition_view(x, .., "
              "zz_x_wtoken)`, the Tile IR load, its token joined into `zz_x_token`), each store through `unsafe { "
              "make_partition_view_mut(x, .., zz_x_token) }` + `store_unchecked` at the source's index (listed as an "
              "unsafe site), its token then both: cuTile Python's two tokens per array, carried by loops and `if`s "
              "(real_inplace); a loop's parallel store (its only access of the array, at the loop index) starts "
              "from the token before the loop and is joined into the carried one, also where an acquiring or "
              "releasing atomic orders every array (a cross-entropy gradient stored per chunk, then the loss added)",
              S, "real_inplace"),
    Construct("store-ordered", "an array only written, stored several times with some store inside a runtime `if` "
              "or a loop (a persistent matmul's epilogue storing the halves of its tile under `if ki == last:`; an "
              "output stored before a loop and again under an `if` in it), or at tile indices computed by arithmetic "
              "(`(t * 2,)` and `(t * 2 + 1,)`: a lowered Triton kernel's `out + 2 * t` and `out + 2 * t + 1`) or only "
              "literal (`(0,)`, `(1,)`: a few results stored into one small array, `tl.store(out + 1, mn)`); stored "
              "once where a loop may run the store several times at one tile (in a `while`, or in a `for` whose "
              "index it does not read: `if k == k_tiles - 1: ct.store(c, (i, j), acc)`)",
              "`&Tensor`; each store through `unsafe { make_partition_view_mut(x, .., zz_x_token) }` + "
              "`store_unchecked` at the source's index (listed as an unsafe site), its token the next one's: the "
              "array's token chained through the stores and carried by the loops and `if`s as cuTile Python carries "
              "it (store-inplace's machinery; the last-store token nothing reads is dropped, as cuTile Python drops "
              "it)", S, "real_stores"),
    Construct("gather-scatter-nd", "`ct.gather`/`ct.scatter` on an array of any rank and strides, one i32 or i64 "
              "index tile or scalar per dimension (broadcast together, lower ranks padded with leading 1s: a 0-d "
              "tile `slot // PAGE` next to an `arange`; scalars only: one element, a 0-d tile; an "
              "int64 label `.item()`), `mask=`, `padding_value=`, `check_bounds=`",
              "pointer arithmetic as cuTile Python lowers it; a stride other than 1 comes in as an entry parameter "
              "`x_strideD: i32` the launcher fills (cutile 0.3.1 cannot read strides in a kernel), labelled as that "
              "stride by irdiff's layout (`R<array>.<dim>`); a scatter after several gathers of its array joins their "
              "tokens one by one, as cuTile Python's token order does (real_rolling_state)", S, None),
    Construct("store-unchecked", "`ct.store` at an index no safe form covers (a fixed tile every block writes, "
              "a computed index); stores of one array in different arms of a runtime `if` (in a loop too)",
              "`unsafe { partition_full_mut }` + `store_unchecked` at the source's index, listed "
              "as an unsafe site with the source's contract as its precondition", S, "numerics"),
    Construct("arith-promote", "element-wise operands of different dtypes of one kind (an f16 tile and an f32 tile or "
              "f32 argument, i32 and i64 tiles, an i32 scalar with an i64 tile or scalar, an i64 scalar with an i32 tile: "
              "`offs == label` of an int64 label's `.item()`; a signed integer tile next to a float tile, `s / ct.maximum(n, 1)` of a "
              "gathered count: the float's dtype; an f16/bf16 scalar, `.item()` of a half tile, with an f32 tile; an "
              "f32 argument with an f64 tile; a bool flag in scalar arithmetic, `1.0 + (not inside)`, `2 * pid + "
              "edge`; a runtime bool scalar with a number tile, `ct.sum(t * t) + n` of an `int` launched with True)", "the narrower operand converted first (a flag by an unsigned itof / exti) "
              "(`convert_tile`, `exti`, bound to its promoted type), as cuTile Python promotes it (f16 and bf16 do not "
              "mix)", S, "idioms"),
    Construct("extract", "`ct.extract(t, (i, j), shape=(M, N))` (constant extents, i32 indices)",
              "`extract(t, [scalar_to_tile::<i32>(i), ..])` bound to its `Tile<E, { [M, N] }>`", S, "idioms"),
    Construct("const-fold", "an expression of constants mixing int and float (`N * 1.0`, `1.0 / TILE`), or of "
              "float constants (`1.0 - SMOOTHING`, a float constexpr); "
              "`min`/`max`/`abs`/`**` of constants (`min(BM, BN)`, an extent, `D ** 0.5`); float arithmetic of "
              "literals (`1.0 / 2147483647.0`); `//` and `%` of integer literals (`2891336453 % 2147483647`); a "
              "module tuple's item and length (`SCALES[K]`, `len(SCALES)`)",
              "the float Python folds it to, as an f32 literal (cuTile Python folds it the same way); the value",
              S, None),
    Construct("int-to-float", "an i32 scalar in float arithmetic (`M * 1.0`, `tile / M`, `t + (hi - lo)` with "
              "t an f16/bf16 or f64 tile, `ct.sum(t) / B` of an f64 tile)",
              "the signed itof Python's promotion emits: `convert_tile(scalar_to_tile(m))` as an f32 scalar (to the "
              "tile's dtype next to a 16-bit or f64 tile); a constant is folded to its float (`(hi - lo) / NB` of a "
              "`ct.Constant[int]`: 64.0, as cuTile Python folds it; 64.0f64 with an f64 tile)", S, None),
    Construct("exp-rounding", "`ct.exp(x, rounding_mode=..)`, `ct.tanh(x, rounding_mode=..)`",
              "`exp_rounded(x, rounding::Approx)`: cutile 0.3.1's `exp`/`tanh` emit the op without a rounding mode, "
              "so the port's module declares the same Tile IR op with the mode as a `#[cuda_tile::op]` function "
              "(cutile's own mechanism; rustgen.declared_ops)", S, "numerics"),
    Construct("store-other", "any other `ct.store` (other index, several stores at different block maps, "
              "read-and-write arrays)",
              "`unsafe` partition_full_mut / pointer stores", P, None),
    Construct("arith-tile", "`a + b`, `a - b`, `a * b`, `a / b` on tiles of one shape", "the same operators; on "
              "16-bit integer tiles, which cutile 0.3.1's operators do not implement, `addi_wrapping`, "
              "`subi_wrapping`, `muli_wrapping` (the Tile IR ops, declared with their overflow attribute: "
              "rustgen/declared_ops.py)", S,
              "vector_add"),
    Construct("arith-scalar-broadcast", "tile op scalar / literal", "`broadcast_scalar(s, shape![..])` operand; an "
              "unsigned constant with its top bit set (`t & 0xF0` on u8, `h * 2654435761` on u32, `ct.full(.., 200, "
              "dtype=ct.uint8)`) is the signed literal of its bits, bitcast (cutile 0.3.1 writes `240u8` as 0 and "
              "parses no literal beyond i32); i32's lowest value (`-2147483648` on i32, `0x80000000` on u32) is "
              "`(-2147483647i32 - 1i32)`, a tile of it by `broadcast_scalar` (cutile parses `-2147483648i32` as "
              "the negation of 2147483648 and panics; its `constant(..)` takes a literal only; irdiff folds the "
              "subtraction: fold-int-constants); "
              "a folded int (`4 * j` of a static_iter item) with an integer tile of another dtype is a constant of "
              "the tile's dtype (SMALL_KERNELS gen7_bits)", S,
              "scale_cast"),
    Construct("fma", "`a * b + c` that cuTile Python fuses (an `fma` at that source location in the reference IR)",
              "`fma(a, b, c, rounding::NearestEven, ftz::Disabled)`; also `a*b - c` → fma(a, b, -c), `c - a*b` → "
              "fma(-a, b, c), across a binding (`m = a * b; m + c`), and `ct.mul(.., rounding_mode=R, "
              "flush_to_zero=F) + c` → fma(.., R, F) — each found by the differential fuzzer; a helper's returned "
              "product fused after the call (the inlined block yields both factors); of float scalars "
              "(`a * b + 1.0`), the fma of their 0-d tiles (real_idioms6); `c + a * b` with reads in `c`: `c` "
              "first, as Python evaluates it (real_rolling_state); `x = mma(..) * s` first bound in a loop body and "
              "fused into the next `x = x + c` (ALiBi's `qk + bias`: the mma computed where it stands); "
              "`ct.astype(a * f, x.dtype) + c` fused through the conversion where it is a no-op (each variant "
              "contracted as its own reference is: SMALL_KERNELS fmacast); a name re-bound to its own product in "
              "straight-line code and fused into a later `p = p - ..` (AdamW's `p = p * (1 - lr * wd)`), and a "
              "product one of whose factors is re-bound before the sum reads it (the fma takes the factor's earlier "
              "value, kept by a `let`: SMALL_KERNELS fma5); a `let mut` re-bound to its own product in a loop body "
              "(an embedding bag's `row = row * w; acc += row`) and summed in that block or a branch nested in it "
              "(the factor's earlier value kept by a `let`, the dead in-place product dropped; not across a nested "
              "loop that re-binds the name or a factor, nor after the block: SMALL_KERNELS fma6)", S, "gelu_tanh"),
    Construct("float-special", "`float('inf')`, `float('-inf')` in a kernel; `-float('inf')` (`float('nan')` is "
              "refused: cutile 0.3.1 has no NaN constant, docs/corpus.md limits)",
              "`constant(f32::NEG_INFINITY, shape![])` (a 0-d f32 tile; cutile cannot type a bare `f32::NAME`); "
              "a negated infinity is the other constant, as cuTile Python folds it (no `negf`)",
              S, None),
    Construct("astype", "`ct.astype(x, dtype)` (dtype a `ct.<type>` or `array.dtype`) of a tile or a scalar "
              "(`pid.astype(ct.int64)`); a mask to numbers (`m.astype(ct.int32)`, `m.astype(ct.float32)`)",
              "`let v: Tile<D, S> = convert_tile(x);`; integer to integer: `exti` (wider), `bitcast` (same width), "
              "a bool tile to an integer an unsigned `exti`; "
              "`trunci_wrapping(x, overflow::None)` (narrower: the wrapping `trunci` declared in the port's module with its "
              "`overflow` attribute spelled, which cutile 0.3.1's own `trunci` leaves out and then cannot serialize); "
              "a scalar converted as the 0-d tile it is in cuTile Python (`tile_to_scalar(exti(scalar_to_tile(x)))`); "
              "a tile stored into an array of another dtype converted the same way first, as cuTile Python does",
              S, "scale_cast"),
    Construct("assign", "`name = expr` (re-assignment shadows)", "`let name: T = expr;`", S, "vector_add"),
    Construct("flag-bool", "a `True`/`False` flag re-assigned in a loop or branch (`live = True` .. `live = False` "
              "under `if`, read by `if live:`: an early exit without `break`)",
              "`let mut live: bool = true;` (cuTile Python's i1 0-d constant and carried value)", S, None),
    Construct("if-constant", "`if`/`elif`/`else` on constants only (`ACT == 1`, `ACT in (1, 2)`; names re-assigned "
              "in an arm keep their type)",
              "`if ACT == 1 { .. } else if .. { .. }` on the const generics; cutile folds it per specialization, "
              "so both arms are type-checked and the IR has no branch, as in Python", S, "bias_act"),
    Construct("if-constant-folded", "`if`/`else` on constants that Rust's const generics cannot state (a float or "
              "bool constant, `dtype == ct.float32`), whose arms define names read after it, re-bind a name to "
              "another type, or (the arm not taken) hold what the translator refuses",
              "only the taken arm, in place: cuTile Python folds the branch the same way (an entry per value)", S,
              None),
    Construct("ifexp-constant", "`a if C else b` with `C` on constants (values of one type)",
              "`if C { a } else { b }` on the const generics: folded per specialization, as in Python", S, None),
    Construct("if-runtime", "`if`/`elif`/`else` on a comparison of runtime scalars (names re-assigned in an arm keep "
              "their type; float `!=` unordered, as in Python); one name first bound in every arm and read after "
              "(`if c: s = a` / `else: s = b`)", "the same `if` in Rust: a Tile IR `if` that yields the re-assigned "
              "values, as in Python; the name first bound in the arms is the `if`'s value (`let s: T = if c { .. } "
              "else { .. };`); several such names (`if c: a = x; b = y`): cutile 0.3.1 yields no tuple from an "
              "`if`, so all but the last are `let mut`s declared before it (a value never read) that the arms "
              "re-assign, the last the `if`'s value (cutile yields the re-assigned names, then the value); a "
              "gathered i64 id compared with an i32 argument (`if tok != PAD`) widens the i32 (exti, as Python "
              "promotes: SMALL_KERNELS gen7_forms)",
              S, "softcap"),
    Construct("logic-runtime", "`a and b`, `a or b`, `not a`, `lo <= i < hi`, `x if c else y` on runtime scalars "
              "(an arm a 0-d tile, `abs(eps)`, next to a scalar: the scalar it holds)",
              "short-circuit `if`s yielding the value, as cuTile Python compiles them (`let both: bool = if a { b } "
              "else { a };`, `not` as `^ true` on the 0-d tile, `if c { x } else { y }`); a 0-d tile compared "
              "(`s > 1.0` of a reduced `s`) bound to a typed `let` first (cutile 0.3.1 panics on it inline)", S,
              "real_syntax"),
    Construct("for-range", "`for i in range(stop)` / `range(start, stop)` (step 1), loop-carried re-assignment; "
              "negative literal bounds (`range(-1, 2)`)",
              "`for i in start..stop { .. }` with `let mut` carried values; a negative literal bound typed "
              "(`-1i32..2`: cutile 0.3.1 infers no type for a bare `-1` there); an empty constant range "
              "(`range(0)`, `range(N)` at N = 0) with its bounds as 0-d tiles (cutile's `assume bounded<0, -1>` "
              "fails Tile IR verification)", S, "matmul"),
    Construct("loop-split", "an `if` in a step-1 loop's body testing the loop index against a loop-invariant value "
              "(`if j >= mask_start:`), the only such `if` of the loop; a loop left by `break` there (`if j > w: "
              "break`, the `if` holding only the `break`)",
              "two loops, `start..min(stop, s)` and `max(start, s)..stop`, each with the arm its iterations take: "
              "the loops cuTile Python's loop_split pass compiles the one loop to; for a `break`, its for_loop_break "
              "flag (`zz_broke`) declared before both, each loop carrying it and the values the loop carries "
              "(re-assigned to themselves where a loop does not change them), the second loop only setting it "
              "(what the body computes before the `if` dropped there, as cuTile Python drops it)", S,
              "causal_tiles"),
    Construct("early-return", "`return` inside an `if`: a helper returning early (`if KIND == 1: return silu(v)` "
              "then `return relu(v)`, on constants or runtime values, one such `if`), a kernel stopping early "
              "(`if pid >= n: return` among its top-level statements, or on constants anywhere); a bare `return` ending "
              "the kernel is nothing",
              "the rest of the body becomes the other arm (resolve's early-return rewrite): on constants only the "
              "taken arm; on a runtime value the `if` yields the helper's result (`let r: T = if c { .. } else "
              "{ .. };`), and a kernel's rest is the `else` arm. cuTile Python's one-trip `loop` left by `break`s "
              "is irdiff's single-break-loop / single-trip-loop-if, its `return` inside the `if` early-return-else "
              "(also after a store in that arm, whose token the `if` yields to the rest: `if tok < lo: store zeros; "
              "return`, SMALL_KERNELS gen8_forms)",
              S, "real_syntax"),
    Construct("early-return-runtime", "a kernel's `return` under an `if` on a runtime value inside a loop or another "
              "`if`", "none in cutile 0.3.1 (`return` only at the end of a body)", P, None,
              "refused with the reason; docs/corpus.md (limits)"),
    Construct("for-break", "`break` and `continue` in a `for` over a range (at any depth of `if`s in its body)",
              "`continue;`; a `break` as cuTile Python's for_loop_break compiles it: a `let mut` bool flag the loop "
              "carries (`zz_0_broke`: after the loop's own values, before its tokens, where cuTile Python adds "
              "it), set by the `break` (then `continue;`), and `if zz_0_broke { continue; }` first in the body", S,
              "real_syntax"),
    Construct("static-iter", "`for i in ct.static_iter(range(..))` / `ct.static_iter((a, b, ..))` over constants "
              "(no `else`, `break`, `continue`, `return`), `range(len(SCALES))` of a module tuple, a slice of one "
              "(`COEFFS[-2::-1]`), `reversed(..)` of either, a module tuple of tuples (`for stage in "
              "ct.static_iter(STAGES)`, `k, j = stage`: "
              "SMALL_KERNELS static5; unpacked by the loop, `for k, w in ct.static_iter(TAPS)`: gen8_forms); scatters "
              "into one array in its body, each copy after the one before (gen8_unroll)", "the body once "
              "per item in place, `i` bound to the item's literal (`SCALES[i]` the item's literal too): cuTile "
              "Python unrolls it the same way", S, "real_idioms2"),
    Construct("while", "`while C:` on runtime scalars (`while k < n:`), `while True:` left by `break`, "
              "`while False:` (left out: cuTile Python breaks before the body), "
              "loop-carried re-assignment, `break` and "
              "`continue` in it, scatters and atomics in its body (no `else`; a scatter in the condition is refused "
              "with the reason; an atomic there: acquire-ordered)",
              "`while k < n { .. }` (`loop { .. }` for `while True:`) with `let mut` carried values: cutile's `loop` "
              "that breaks unless the condition "
              "holds, as cuTile Python compiles it; `break;` / `continue;` the Tile IR `break` / `continue` cuTile "
              "Python emits (real_idioms6); each array a scatter or atomic in the body writes carries its token "
              "(`zz_x_token`) as cuTile Python's loop does (real_while_atomics)", S, "real_idioms2"),
    Construct("for-persistent", "`for t in range(ct.bid(0), n, ct.num_blocks(0))` (grid-stride loop); any "
              "`range(a, b, step)` of a step other than 1, bounds read from memory (`ct.gather(row_ptr, r)`, 0-d "
              "tiles: the scalars they hold; int64 ones, an int64 cu_seqlens' offsets, with a step known at "
              "translation time)",
              "`for t in (start..n).step_by(get_num_tile_blocks().0 as usize)`; over int64 bounds the step is its "
              "folded value (`.step_by(32)`: cutile 0.3.1 types a loop's step as its start's, and compiles `BT as "
              "usize` as an i32), as cuTile Python's i64 loop", S, "persistent_scale",
              "an int64 range whose step is not known at translation time (tests/test_port.py SMALL_KERNELS "
              "`gen15_forms` proves the int64 form)"),
    Construct("store-schedule", "`ct.store(out, index=(t,), ...)` at a grid-stride loop index bounded by "
              "`ct.num_tiles(src, ..)` (rank 1)",
              "`unsafe { out.partition_full_mut(..) }` + `unsafe { store_unchecked(..) }` with a SAFETY comment, "
              "an unsafe-site entry in the verdict and a launch precondition", S, "persistent_scale"),
    Construct("store-bijective", "`ct.store(out, index=(..), ...)` at a one-to-one map of the block ids other than "
              "the block's own: block axes permuted (`z = ct.bid(2)` first) and/or reversed (`i = ct.num_blocks(k) - "
              "1 - ct.bid(k)`, e.g. longest blocks first), literal 0s; the names bound outside any branch or loop",
              "`unsafe { out.partition_full_mut(..) }` + `unsafe { store_unchecked(.., [..]) }` with a SAFETY "
              "comment (one-to-one on the blocks), an unsafe-site entry in the verdict and a launch precondition",
              S, "attention"),
    Construct("store-parts", "several `ct.store(out, index=(..), ...)` of one array, all at the same block ids (as "
              "in store-block-owned or store-bijective) with literal tile indices elsewhere and tiles of one shape: "
              "a block's region written in parts (e.g. the two halves of a head)",
              "per store `unsafe { out.partition_full_mut(..) }` + `unsafe { store_unchecked(.., [.., c]) }` with a "
              "SAFETY comment (one block map, so the blocks' parts are disjoint), an unsafe-site entry each and a "
              "launch precondition", S, None,
              "proven on a kernel of its own (tests/test_port.py SMALL_KERNELS `parts`): rope stored its halves "
              "this way until it gathered its heads"),
    Construct("store-options", "`ct.store(..., allow_tma=False, latency=L)` (literal bool, constant L) at the "
              "block's own index or any index the unchecked paths above take",
              "at the block's own index (every store of the array there): the output a `&mut Tensor` and the store "
              "through its own tile's `partition_mut` at index 0 — `unsafe { store_view_tko_mut(&mut tiles, tile, "
              "[0, ..], ordering::Weak, scope::TileBlock, Some(L), tma::Disabled) }` (cutile's checked store takes "
              "no hints; the SAFETY comment says the launcher hands each block its own tile); at other indices "
              "through the full tensor's partition with the SAFETY comment, unsafe-site entry and precondition of "
              "store-bijective",
              S, "layer_norm"),
    Construct("store-alternatives", "stores of one array in different arms of a constant `if` (one of them runs "
              "in each specialization), e.g. a store whose hints depend on the tile size",
              "each through the full tensor's partition, as in store-options (one output is a full tensor in every "
              "arm); no token chain between them (they never both run); at an index no block owns, each unchecked "
              "as one store there is (in a loop, on the token the loop carries)", S, "row_softmax"),
    Construct("load-in-bounds", "`ct.load(a, index=(t,), ...)` at a loop index proven < `ct.num_tiles(a, ..)` "
              "(rank 1)", "`load_view_tko(&view, [t], ...)`: the Tile IR load without a redundant bounds check", S,
              "persistent_scale"),
    Construct("reduce", "`ct.sum/max/min/prod(x, axis=k, keepdims=..)` without rounding/ftz/nan options, or "
              "with them at their defaults (`rounding_mode=ct.RoundingMode.RN`, `flush_to_zero=False`: the same "
              "reduce); `axis=None` (every axis) of a tile of any rank; a keepdims a helper's parameter holds",
              "`reduce_sum(x, k)` (+ `.reshape(..)` for keepdims, and to its own named shape: cutile types a "
              "reduction by its extents' values); every axis: axis 0 reduced once per axis, as cuTile Python does",
              S, "row_softmax"),
    Construct("unary-neg", "`-t` on a float tile; on an integer tile; `-n` of a runtime int scalar",
              "`negf(t)`; `negi(t, overflow::None)`; of an int scalar the `negi` of its 0-d tile (cutile negates "
              "only literals: SMALL_KERNELS forms5)", S, "bias_act"),
    Construct("exp", "`ct.exp(t)`", "`exp(t)`", S, "bias_act"),
    Construct("maximum", "`ct.maximum(a, b)` / `ct.minimum` on float tiles, with literal `propagate_nan=` and "
              "`flush_to_zero=`; Python's `max`/`min` of two f32 scalars (`max(lo, 0.0)` of an argument)",
              "`maxf(a, b, nan::Disabled, ftz::Disabled)` / `minf` (`nan::Enabled`, "
              "`ftz::Enabled` for the options set True); of scalars on their typed 0-d tiles; of integer tiles of any "
              "width, signed or not, `maxi`/`mini` (cutile infers the signedness from the dtype: SMALL_KERNELS "
              "gen7_intmax)", S, "gelu_erf"),
    Construct("math-explicit", "`ct.add/sub/mul/truediv(x, y, rounding_mode=, flush_to_zero=)`, `ct.sqrt`, "
              "`ct.rsqrt`, `ct.exp2`, `ct.tanh`, `ct.log`, `ct.log2`, `ct.sin/cos/tan`, `ct.sinh/cosh`, `ct.floor/ceil`, "
              "`ct.abs`, `ct.pow(x, y)`, `ct.atan2(x, y)` on float tiles; `ct.abs` of an integer tile (`absi`); of f32 "
              "scalars (`ct.sqrt(bc2)`, `beta ** step`, `2.0 ** (-8.0 * (h + 1) / H)` of a block id: gen8_forms) "
              "the op on their 0-d tiles, bound to a typed `let` (cutile infers no result type inline: SMALL_KERNELS "
              "forms5)",
              "`mulf(a, b, rounding::Zero, ftz::Disabled)`, `rsqrt(x, ftz::..)`, `exp2(x, ftz::..)`, ...: every "
              "rounding and flush-to-zero choice spelled out; `ct.add/sub/mul/truediv` of scalars without options: "
              "folded when constant (`ct.truediv(1.0, D)`), else the operator (real_rolling_state)", S, "rms_norm"),
    Construct("math", "other math (`pow`, `atan2`, integer math, ...)", "the matching cutile op", P, None),
    Construct("int-floordiv", "`a // b`, `a % b` of two i32 scalars (Python's floor semantics, e.g. a block id "
              "over or modulo a head count), a 0-d tile among them (a gathered slot); of an i64 scalar and an i32 "
              "or i64 one (`page, off = divmod(slot, PAGE)` of an int64 slot's `.item()`: the i32 widened, as in "
              "row arith-promote); `q, r = divmod(a, b)` "
              "(resolve's divmod rewrite); of i32 or i64 tiles "
              "(an i32 scalar operand widened: `slot % PAGE`, slot an int64 tile); of an unsigned or 8/16-bit "
              "integer tile and one of its dtype or a Python int constant (`h % NBITS` of a uint32 hash, round 25: "
              "the same recipe in that dtype, unsigned where it is; cuTile Python 1.7 itself cannot compile an "
              "unsigned `//`, docs/corpus.md limits)", "on the 0-d tiles (`scalar_to_tile` / `tile_to_scalar`): "
              "`divi(.., rounding::NegativeInf)`; `remi` then `+ b` where the remainder is non-zero and its sign "
              "differs from b's (a `select`), as cuTile Python lowers them", S, None,
              "proven by tests/test_port.py::test_small_kernels_are_proven; of tiles: planned"),
    Construct("int-true-div", "`v / n` of i32 tiles or scalars (Python's true division: a float)",
              "each operand a signed `itof` (`convert_tile`, a scalar's 0-d tile converted), then the f32 division, "
              "as cuTile Python converts them; of constants: the folded f32", S, None,
              "proven by tests/test_port.py::test_small_kernels_are_proven (fmod)"),
    Construct("float-mod", "`t % c` and `t // c` of f32 tiles (a float scalar broadcast: an angle wrapped to [0, "
              "2*pi), a bucket index)",
              "`remf(a, b)`, then `+ b` where the remainder is non-zero (unordered `cmpf`) and its sign differs "
              "from b's (a `select`), as cuTile Python lowers Python's float %; `floor(a / b)` for //", S, None,
              "proven by tests/test_port.py::test_small_kernels_are_proven (fmod)"),
    Construct("mma", "`ct.mma(a, b, acc)` (`acc=` by keyword too, `use_fast_acc=False`; f32 or i32 accumulator; f16/bf16/fp8/int8 operands), of 2-d tiles or "
              "batched rank-3 tiles (`[B, M, K] x [B, K, N]`), a rank-3 operand beside a rank-2 one (`ct.mma(x3, w, "
              "acc3)`); `ct.matmul(a, b)` / `a @ b` of float tiles of rank 1 to 3 (`x3 @ w` of a batch by a matrix, "
              "`v @ w` of a vector, `u @ v` a dot product) and of two float dtypes (`f16 @ f32`)",
              "`mma(a, b, acc)`; rank 3: `mma_batched(..)`, cutile's mma compiler op declared in the port's module "
              "for rank-3 tiles (rustgen.declared_ops); a matmul into a zero accumulator of the first dtype cuda.tile's "
              "mma takes for the operands (f16 for f16 and fp8, f32 for bf16, f32 and tf32), converted back; as "
              "cuTile Python's matmul_impl / mma_impl: the operands converted to their common dtype, a 1-d one "
              "reshaped to `(1, K)` / `(K, 1)` and the product's added axis reshaped away, a rank-2 operand beside a "
              "rank-3 one reshaped to a batch of one and broadcast to the other's batch", S,
              "matmul"),
    Construct("reshape-broadcast", "`ct.reshape`, `ct.broadcast_to`, implicit broadcasting between tile shapes "
              "(one extent spelled two ways meets: `BM` and a computed `64`); a `-1` extent in a reshape",
              "`.reshape(shape![..])`, `.broadcast(shape![..])` made explicit; an identity reshape to the "
              "const generic's spelling where the extents are equal; `-1` inferred as numpy does (the one moving "
              "extent keeps its name)", S, "bias_act"),
    Construct("scan", "`ct.cumsum(t, axis=0, reverse=..)` without rounding options (the axis and direction "
              "literals or constants: `reverse=REVERSE` of a ct.Constant[bool])",
              "`scan_sum(t, 0, reverse::Forward, 0)`", S, "expert_offsets",
              "cutile 0.3.1 builds every scan with dim=0 and identity 0 whatever its arguments say (irdiff caught "
              "it): other axes and ct.cumprod are refused"),
    Construct("permute", "`ct.transpose(t)` (rank 2), `ct.transpose(t, a, b)`, `ct.permute(t, (..))` with literal axes",
              "`t.transpose()` / `permute(t, const_array![..])` bound with its type: the transpose lives in registers, "
              "as in Python (host strides and partition dim maps untouched); cutile 0.3.1 types the result by its "
              "extents' values (`Tile<f32, {[16, 16]}>`), so an element-wise use of it next to a tile typed by the "
              "const generics' names is reshaped to them first (an identity reshape, irdiff identity-shape-ops; "
              "SMALL_KERNELS `permute_ew`)", S, "linear"),
    Construct("load-advanced", "`ct.load_advanced_indexing(x, (rows, ct.Slice(start, L)))` of a "
              "rank-2 array the kernel only reads, rows a 1-D int32 tile, start an int32 scalar, L a constant; "
              "padding_mode left at UNDETERMINED, no latency=/allow_tma=",
              "`unsafe { make_gather_scatter_view(x, shape![R, L], padding::None) }` and "
              "`load_gather_scatter_view_weak(&view, rows, start, token, ordering::Weak, ..)` (cutile 0.3.1's op, "
              "declared in the port's module with a load's ordering: its own takes no `Weak`)", S, None,
              "a padding mode or hints are refused: cutile 0.3.1's view wires no padding value and its load no "
              "hints; so is the index tile in dimension 1 (cutile's load puts it first whatever its sparse "
              "dimension: invalid Tile IR)"),
    Construct("store-advanced", "`ct.store_advanced_indexing(x, (rows, ct.Slice(start, L)), t)` of a rank-2 array "
              "the kernel writes only there, once, outside loops; rows a 1-D int32 tile, start an int32 scalar, L a "
              "constant, t a tile of x's dtype and shape (R, L); no latency=/allow_tma=",
              "`unsafe { make_gather_scatter_view(x, shape![R, L], padding::None) }` and "
              "`store_gather_scatter_view_weak(t, &view, rows, start, token, ordering::Weak)`: Tile IR's "
              "`store_view_tko` on the view, declared in the port's module (cutile 0.3.1 declares the view's load, "
              "not its store)", S, None,
              "an array also read or written otherwise, stored in a loop or twice (the view's store is ordered with "
              "nothing), hints, the index tile in dimension 1, a tile of another dtype or shape: refused with the "
              "reason"),
    Construct("gather-scatter", "`ct.gather(a, idx, mask=, padding_value=, check_bounds=)` / `ct.scatter(a, idx, v, "
              "mask=)` on a rank-1 array with stride 1",
              "exti → unsigned bounds check & mask → `get_tensor_base` pointer tile → `unsafe { load_ptr_tko(..) }` "
              "/ `unsafe { store_ptr_tko(..) }` (unsafe sites in the verdict; a scattered array is a `&Tensor` "
              "marked written for the ownership checks), as cuTile Python lowers them; scatters into one array in "
              "the kernel's top-level statements are chained, each later one taking the token the previous one "
              "returned (a second one inside a loop or branch is refused, except one per arm of a runtime `if` "
              "with none before: each arm from the token before the `if`, as cuTile Python orders exclusive arms; "
              "and several among one arm's own statements, chained there from the token before the `if`: an "
              "early-return guard's `else`, Triton fixture llm/varlen_rope_guard; a write after that `if` is "
              "refused); a scatter and a tile store or load of one array, its only two accesses, in the two arms "
              "of an `if` outside loops, a runtime one too (`if full: ct.store(y, ..) else: ct.scatter(y, .., "
              "mask=)`: SMALL_KERNELS gen13_tail)", S, "token_scatter",
              "strided or multi-dimensional arrays are refused: cuTile Python computes each address from the "
              "array's strides, and a cutile 0.3.1 (and 0.5.0) kernel can read a `&Tensor`'s base pointer and shape "
              "but not its strides (raw-pointer entries with stride scalars would be the way); a gather from an "
              "f16/bf16 array takes padding 0 only (cutile 0.3.1 has no half-precision literal: the port spells 0 "
              "as `constant(bf16::ZERO, shape![])`), a scatter into one needs no literal; `padding_value=` a runtime "
              "scalar of the array's dtype (`padding_value=ignore_index`, a computed `lo - 1.0`, bound once) is the "
              "load's padding operand in a 1-D gather (cutile broadcasts it as cuTile Python does: SMALL_KERNELS "
              "gen7_forms), in a rank-2+ one the padding tile `broadcast_scalar(v, shape![..])` (round 25); one "
              "of another dtype (cuTile Python's implicit cast) refused"),
    Construct("full", "`ct.full(shape, literal, dtype)`, `ct.zeros(shape, dtype)`; `ct.full(shape, v, dtype)` of a "
              "runtime scalar or 0-d tile (of another dtype too: an f32 sum filling a bf16 tile), or of an int "
              "`ct.Constant` parameter into an i32 tile (a seed); an 8-bit float one of a value the format holds "
              "exactly (`ct.full(.., 448.0, ct.float8_e4m3fn)`; another is refused: cutile 0.3.1 has no 8-bit "
              "float constant)",
              "`constant(v, shape![..])`; an 8-bit float's f32 constant converted (irdiff constant-conversion); a "
              "runtime value converted as its 0-d tile, then broadcast; an int constant "
              "as its const generic by name (`broadcast_scalar(SEED, ..)`): used only as a value, the constant is "
              "value-generic — proven at a second value no launch had, then launched at any i32 value "
              "(translate.value_generic)", S,
              "matmul"),
    Construct("arange", "`ct.arange(n, dtype=)` of an integer or float dtype; `start=`, `step=` (resolve's "
              "arange-start-step rewrite)", "`iota(shape![n])` (bound with its type); a float one the i32 iota "
              "converted (`convert_tile`: Tile IR's iota makes integers only), as cuTile Python builds it",
              S, "causal_mask"),
    Construct("compare", "`a < b`, `<=`, `>`, `>=`, `==`, `!=` on tiles (with broadcasting); of an i64 and an "
              "i32 scalar (`label == ignore_index` of an int64 label: the i32 widened, as in row arith-promote); of an f32 and "
              "an i32 scalar (`eps > 0`: the int as a float)",
              "`lt_tile(a, b)`, `le_tile`, ...: signed `cmpi` on integers, ordered `cmpf` on floats except `!=`, which is "
              "`cmpf(a, b, predicate::NotEqual, cmp_ordering::Unordered)` (true on NaN, as in Python)", S, "causal_mask"),
    Construct("where", "`ct.where(cond, x, y)`; a scalar condition (`ct.where(label == ignore, 0.0, loss)`); a "
              "bare literal value takes the other value's dtype", "`select(cond, x, y)` with broadcasts made "
              "explicit; a scalar condition as its 0-d tile; a condition combined by `&`/`|` bound to a typed "
              "`let` first (cutile 0.3.1 mistypes its broadcast comparisons inside `select`: SMALL_KERNELS fma5)", S,
              "causal_mask"),
    Construct("bitwise", "`a & b`, `a | b`, `a ^ b` on integer or boolean tiles, `a << k`, `a >> k` on integer tiles "
              "(arithmetic on signed), `~t` / `ct.bitwise_not(t)` on an integer or bool tile or an int scalar "
              "(`~ct.bid(0)`)", "the same Rust operators; `~t` is `t ^ -1` (`t ^ true`; on an unsigned tile its "
              "largest value, written as its signed bits), as cuTile Python lowers it; on 16-bit tiles (cutile 0.3.1's "
              "operators know no 16-bit integer) `shri(a, b)` and `shli_wrapping(a, b, overflow::None)` (declared in "
              "the port's module with the `overflow` attribute its `shli` leaves out: SMALL_KERNELS gen7_bits)", S,
              "causal_mask"),
    Construct("bitcast", "`ct.bitcast(t, dtype)` to a dtype of the same element size (float bits as integers)",
              "`bitcast(t)` bound to its type", S, "real_idioms2"),
    Construct("pack-bytes", "`ct.pack_to_bytes(t)` of a numeric tile (not bool; float4_e2m1fn too, two to a "
              "byte) of constant extents, "
              "`ct.unpack_from_bytes(b, dtype)` of a 1-d uint8 tile to a numeric dtype (not bool; float4_e2m1fn: "
              "row mma-scaled)", "as cuTile Python: a reshape to rank 1 (none for a 1-d tile), then `bitcast(t)` "
              "where both dtypes have 8 bits (nothing for uint8 to uint8), else cutile's rank-1 `pack(t)` / "
              "`unpack(b)` (Tile IR pack / unpack), each bound to its type (the byte extent: the elements' bits "
              "over 8)", S, None, "round 20's s05 `bytes_rt` proven with the CLI (round 21c)"),
    Construct("mma-scaled", "`ct.mma_scaled(x, x_scale, y, y_scale, acc)` of 2-d tiles (f8e4m3fn / f8e5m2 with "
              "f8e8m0fnu scales, f4e2m1fn with f8e8m0fnu or f8e4m3fn scales; sm_100); `ct.unpack_from_bytes(t, "
              "ct.float4_e2m1fn)` of a 1-d uint8 tile", "`mmaf_scaled(x, y, acc, x_scale, y_scale)` (cutile's operand "
              "order); `unpack(t)` bound to its type", S, None,
              "proven by tests/test_triton_dot_scaled.py (sm_100)"),
    Construct("static-assert", "`ct.static_assert(cond, msg)` on constants", "nothing but a comment: decided from "
              "the constants, as cuTile Python checks it when it compiles", S, "real_idioms3"),
    Construct("assert", "`ct.assert_(cond, message)` of a boolean scalar or tile (message a string literal or "
              "left out)", "`cuda_tile_assert!(cond, \"message\")`: the Tile IR `assert` cuTile Python emits (an "
              "empty message when none is given)", S, "real_idioms4"),
    Construct("print", "`ct.printf(fmt, *args)`, `ct.print(*args)` (device debug output)",
              "none yet: cuTile Python emits one token-ordered `print_tko` of every argument with the format as "
              "written; cutile 0.3.1's `cuda_tile_print!` rewrites the conversions by element type (`%i`, `%f`) "
              "and orders nothing, its `print_tko` takes one argument", P, None,
              "refused with the reason; the Triton frontend drops its device prints, this one keeps the kernel "
              "as written"),
    Construct("insert", "`ct.insert(t, index, value)`", "Tile IR `insert`, which cutile 0.3.1 cannot emit (its IR "
              "crate has no such opcode; `extract` it has)", P, None,
              "refused with that reason; docs/corpus.md (limits)"),
    Construct("grid-dependency-control", "`ct.grid_dependency_control_wait()`, "
              "`ct.grid_dependency_control_launch_dependents()` (programmatic dependent launch)",
              "Tile IR's token-ordered grid-dependency ops (bytecode 13.4), which cutile 0.3.1 cannot emit (cutile-ir "
              "0.3.1 has no such opcodes)", P, None, "refused with that reason; docs/corpus.md (limits)"),
    Construct("reduce-custom", "`ct.reduce(x, axis, func, identity)` / `ct.scan(x, axis, func, identity)` with a "
              "combine function of the user's",
              "cutile 0.3.1's `reduce(x, dim, identity, |a, b| ..)` / `scan(..)` compile the closure, but build the op "
              "along dimension 0 with identity 0 whatever the arguments say (as its scans): not the op cuTile "
              "Python emits", P, None, "refused with that reason; docs/corpus.md (limits). `ct.sum/max/min/prod` "
              "and `ct.cumsum` along axis 0 are ported (rows reduce, scan), and so is a combine that is one of "
              "them at its own identity (`ct.reduce(t, 1, lambda a, b: a + b, 0.0)`, `ct.maximum` at -inf, "
              "`operator.add`; its arguments in order): cuTile Python emits the built-in op's Tile IR for it"),
    Construct("tile-attributes", "`t.shape[k]`, `t.shape`, `t.ndim`, `t.dtype` of a tile (`ct.zeros(t.shape, "
              "dtype=t.dtype)`, `1.0 / t.shape[1]`); `x.ndim` of an array",
              "the extent as the const generic or literal it is (a tile's shape is static in cuTile Python), the "
              "shape spelled out, the dtype's Rust type", S, "real_idioms5"),
    Construct("array-index-i64", "an array annotated `ct.IndexedWithInt64` (signature `@i64`: 64-bit shape and "
              "strides)", "tensor views indexed with i64, which cutile 0.3.1's tensors (i32 shapes and tile "
              "indices) do not state", P, None, "refused with the reason; `ct.ScalarInt64` scalars are ported "
              "(`n: i64`)"),
    Construct("array-static-shape", "an array with a static extent: cuTile Python's calling convention v2, which "
              "`ct.launch` uses where an array has an extent-1 axis (signature `bf16[1,?,?]`) or a parameter is "
              "annotated `ct.ArrayAnnotation(static_shape_dims=..)` (`f32[?,256]`)",
              "the extent in the entry's type (`&Tensor<bf16, { [1, -1, -1] }>`), `x.shape[k]` on it the literal, "
              "the dynamic axes read as cutile 0.3.1 counts them (`x.shape()[j]`, j among the dynamic axes), the "
              "spec's extent divisors compacted to the dynamic axes, an extent-1 axis's stride given cuTile "
              "Python's 16-byte divisor (`_lower_tensor_view_extents`) and, where the launch's is the static 1, "
              "made dynamic in the entry's spec as cuTile Python's view makes it (rt::Compact clears that stride "
              "bit at run time; irdiff rule singleton-view-stride); an output with one is stored through the "
              "full tensor's partition (cutile's `&mut Tensor` view states no static extent); an entry per static "
              "pattern (`_v2`)", S, None,
              "refused: list items with a static extent (their extents come from the descriptor) and slices of "
              "such an array"),
    Construct("array-alias", "a name bound once to an array parameter (`dst = out`) or to one of two chosen by "
              "constants (`src = y if USE_Y else x`; several at once, `src, dst = (y, x) if SWAP else (x, y)`)",
              "the array itself where the name is read (decided per "
              "variant: translate/static_eval.py)", S, "real_views"),
    Construct("array-slice", "`sub = x.slice(axis, start, stop)` bound once (x an array or another slice; axis a "
              "constant, start and stop i32 scalars or 0-d tiles, e.g. `cu_seqlens` bounds of a varlen kernel), then "
              "`ct.load` / `ct.store` / `ct.num_tiles` / `sub.shape[k]` on it",
              "its base `get_tensor_base(x).offset_tile(..)` moved by `start * stride` (i32, widened to i64) and "
              "`unsafe { make_tensor_view(base, shape, strides, ..) }` with extent `stop - start`, as cuTile Python "
              "builds it; a dynamic stride is an entry parameter `x_strideD: i32` the launcher fills (cutile 0.3.1 "
              "cannot read strides in a kernel); the pointer's alignment stated where cuTile Python states it; stores "
              "into it unchecked (store-unchecked)", S, "real_varlen",
              "gathers, scatters and atomics on a slice, and a slice stored while its array is accessed through "
              "another name, are refused with the reason; docs/corpus.md (limits)"),
    Construct("array-list", "a list-of-arrays parameter (`List[Array]`, signature `list[ARRAY]`: a grouped GEMM's "
              "matrices): `x = As[i]` bound once, `len(As)`, then `ct.load` / `ct.store` / `ct.num_tiles` / "
              "`x.shape[k]` / `x.dtype` on the item",
              "the entry takes the descriptors' address and count (`As: *mut i64, As_len: i32`, an `unsafe fn`); "
              "`x` is descriptor i loaded from the `[count, words]` table, its words taken out (`extract`, `trunci`, "
              "`int_to_ptr`), the element signature's facts assumed and `make_tensor_view` made of it, as cuTile "
              "Python's GetArrayListItem builds it; stores into items on the list's carried token", S, "real_lists",
              "a list used otherwise (passed on, iterated, subscripted inline), items both loaded and stored, "
              "gathers/scatters/atomics on items and 64-bit indices are refused with the reason; the served "
              "runtime does not launch list parameters yet (`tileport port` proves them)"),
    Construct("tiled-atomic", "`v = x.tiled_view(shape)` then `v.atomic_store_add(index, update)` (also "
              "`atomic_store_max/min/and/or/xor`): a tile reduced into memory atomically (split-K), one per array "
              "at the kernel's top level, the array accessed no other way",
              "`unsafe { x.partition_full_mut(shape![..]) }` and `atomic_red_view_tko(&mut view, update, [..], "
              "atomic::AddF, ordering::Relaxed, scope::Device)`: the Tile IR view reduction cuTile Python emits, "
              "declared in the port's module as cutile's `tileir` module declares it (rustgen.declared_ops); the "
              "update broadcast to the tile and converted to x's dtype", S, None,
              "proven by tests/test_port.py SMALL_KERNELS `tiledred`; in a loop or branch, or on an array also "
              "accessed otherwise: refused (its token order is not carried yet)"),
    Construct("store-order", "`ct.store(y, index, t, order=\"F\")` (or a permutation of the axes): the tile in the "
              "order's axis order, the index in its tile space",
              "an unchecked store through `make_partition_view_mut_permuted(y, shape![..], padding::None, "
              "const_array![1, 0], token)`: cuTile Python's partition view with the order as dim map, writable "
              "(declared in the port's module: cutile 0.3.1's `make_partition_view_mut` takes no dim map, its "
              "read-only `make_partition_view` does); the block-to-tile argument as a store at a permuted block index "
              "(store-bijective), or the array's unchecked stores", S, None,
              "proven with `tileport port` (round 21, s01 `store_order_f`); into a slice or a list item, or at a "
              "counted loop's index: refused"),
    Construct("tiled-view-steps", "`v = x.tiled_view(shape, traversal_steps=steps)` bound once, then "
              "`v.load(index)` (steps other than the shape: tile k of a dimension starts at element k * step, tiles "
              "overlapping or leaving gaps; `v.traversal_steps`)",
              "`unsafe { make_strided_view(x, shape![..], padding::None) }` typed `StridedView<E, {[shape]}, "
              "{[steps]}, {[0, ..]}>` and `load_strided_view_weak(&view, [..], get_tensor_token(x), ordering::Weak, "
              "scope::TileBlock)`: cuTile Python's strided view and its weak load_view_tko, through cutile 0.3.1's "
              "`tileir` ops (the load declared in the port's module with a weak ordering, rustgen.declared_ops); "
              "steps equal to the shape are the plain partition view, as in cuTile Python", S, None,
              "proven with `tileport port` (round 21, s01 `tview_steps`); a padding mode other than UNDETERMINED, "
              "load hints, a store, num_tiles or a reduction through such a view, or an array the kernel also "
              "writes: refused with the reason (cutile 0.3.1's strided view takes no padding, its load no hints, "
              "and it has no strided store or index-space query)"),
    Construct("array-views", "`x.get_raw_memory()`, `x.foreign_pointer()` (views made in the kernel)",
              "a tensor view of an offset pointer with runtime extents (cutile's `make_tensor_view`)", P, None,
              "refused with its location; a plain `x.tiled_view(shape, padding_mode=..)` bound once is resolve's "
              "tiled-view rewrite (ct.load / ct.store / ct.num_tiles), one with traversal steps row "
              "tiled-view-steps"),
    Construct("static-eval", "`ct.static_eval(expr)` of literals, module constants and the kernel's constants "
              "(`ct.static_eval(D // 2)`, `max(1, BLOCK // 4)`, `math.` functions); one choosing a dynamic value by "
              "them (`ct.static_eval(t * 2.0 if ODD % 2 else t - 1.0)`, arithmetic of tiles and scalars); a tuple "
              "written out indexed by them (`DTYPES[OUT]`)",
              "the value as a literal, computed per specialization as cuTile Python computes it when it compiles; "
              "the arm chosen, compiled as its arithmetic (cuda.tile's proxies build that expression); the element "
              "(translate/static_eval.py)", S, "real_idioms4",
              "an expression of a helper's parameters, or of runtime values other than basic arithmetic, is refused "
              "with its location"),
    Construct("acquire-ordered", "an acquiring atomic in a `while` condition, a loop or a runtime `if`, or memory "
              "operations after one (a spin lock: `while ct.atomic_cas(lock, i, 0, 1) == 1: pass`, loads, gathers and "
              "stores of other arrays, `if`s, then a releasing `ct.atomic_xchg(lock, i, 0)`); a releasing atomic after "
              "stores inside a loop or branch (an RMS norm backward's dW added after its rows' dx stores: "
              "llm/rms_bwd_atomic_dw); an acquiring atomic on an array the kernel also loads or stores as tiles "
              "(`t = ct.load(x, ..)` then `ct.atomic_add(x, idx, t)`, round 25; a relaxed one there refused); a "
              "`ct.scatter` into an array also loaded or stored as tiles, every access of it among the kernel's "
              "straight-line statements (a KV cache appended, then read as a tile; no atomic needed, round 25; in "
              "a loop or the arms of a runtime `if` refused)",
              "cuTile Python's token_order pass written out: per array a last-operation and a last-write `let mut` "
              "token (`zz_<k><array>_token`/`_wtoken`, k its rank by first access) and an acquire token "
              "(`zz_zz_acquire`); reads wait on the last write, writes and atomics on the last operation, every "
              "operation after an acquiring atomic also on the acquire token, a releasing atomic on every array's "
              "last operation, each value joined once in the token map's order; loops and `if`s carry what they "
              "re-assign (an `if` names every carried value in its first arm: cuTile Python's order); a `while` "
              "condition's atomic is performed first in each iteration (`loop { ..; if c {} else { break; } .. }`); "
              "a token nothing reads after an `if` (an atomic's result) is not yielded by it, as cuTile Python "
              "yields none; an array both loaded as tiles and updated by atomics (`old = ct.load(best, ..)`, then a "
              "CAS loop on `best`) orders its views and its pointer ops by its own two tokens", S, "real_spin_lock"),
    Construct("assume-divisible", "`ct.assume_divisible_by(n, D)` of an integer scalar (constant D > 0)",
              "`unsafe { assume_div_by::<_, D>(n) }` with a SAFETY comment; an unsafe site whose precondition is the "
              "kernel's claim", S, "real_idioms3"),
    Construct("assume-carried", "an integer value a `for` or `while` loop carries that is a multiple of a power of "
              "two P > 1 at every iteration (`off = 0` before the loop, `off = pid * B` or `off + 2 * B` in it; an "
              "int tile `cnt + 8` from zeros)",
              "`off = unsafe { assume_div_by::<_, P>(off) };` first in the body (in a `while`'s condition block, "
              "before its test): cuTile Python's dataflow analysis (literals, constexprs, `+ - *`, joins over ifs and "
              "iterations; translate/divby.py) and its add_divby_pass state `assume div_by<P>` on that loop body "
              "parameter and every read takes it; an unsafe site", S, "real_carried_facts"),
    Construct("argmax", "`ct.argmax(x, axis)` / `ct.argmin` (keepdims; no axis: the flat index)",
              "cuTile Python's one reduce of two operands (values, indices; a comparison body), which cutile 0.3.1 "
              "cannot write (its `reduce` takes one operand), as two reductions: `let best = reduce_max(x, axis)` "
              "kept as a dimension, then the least index where x equals it (or where it is NaN: no value but NaN) "
              "— `reduce_min(select(hit, iota, i32::MAX), axis)`; proven by irdiff rule argmax-two-reductions",
              S, "real_argmax", "refused with the reason: propagate_nan=True, a runtime axis, 8- / 16-bit integer "
              "tiles (cutile 0.3.1: \"Unsupported constant type i8 min\")"),
    Construct("pow-int", "`x ** n`, `ct.pow(x, n)` of a float tile or scalar and a constant integer n >= 2 (a "
              "literal, a `ct.Constant[int]`, a constant expression; f64 also n = 1): `(t - mu) ** 2`, `t ** 3`",
              "the products tileiras 13.4 compiles Tile IR `fpowi` of a constant exponent to (square-and-multiply, "
              "right to left: `x ** 2` is `x * x`, `x ** 3` is `(x * x) * x`, `x ** 7` is `(x4 * x4) * (x2 * x)` with "
              "`let x2 = x * x; let x4 = x2 * x2;`; f16/bf16 computed in f32 and rounded once, as tileiras does), "
              "proven by irdiff rule fpowi-const (cutile 0.3.1 cannot emit `fpowi`)", S, "real_powers",
              "refused with the reason: a negative exponent (tileiras takes the reciprocal rcp.rn of the product, a "
              "port's `1.0 / p` compiles to a division), 0 (the constant 1), 1 of f32/f16/bf16 (tileiras keeps `x * "
              "1`, which a port's `x * 1.0` does not keep), an exponent known only at run time; a float exponent "
              "(`x ** 2.0`) is ct.pow (math-explicit); docs/corpus.md (limits: the machine code read)"),
    Construct("isnan", "`ct.isnan(t)` of a float tile", "`cmpf(t, t, predicate::NotEqual, "
              "cmp_ordering::Unordered)`: the unordered `t != t` cuTile Python compiles it to", S, "real_idioms2"),
    Construct("cat", "`ct.cat((a, b), axis)` of two tiles of one dtype and rank (literal axis, negative too)",
              "`cat(a, b, axis)` bound to its type, the joined extent spelled as its value", S, "real_idioms2"),
    Construct("num-tiles", "`ct.num_tiles(a, axis=k, shape=(..))`, `order=` too (\"F\", a permutation)",
              "`num_tiles(&a_tiles, k)` over an unpadded partition view (its dim map the order)", S, "matmul"),
    Construct("array-shape", "`a.shape[k]` of an array parameter (literal k)", "`a.shape()[k]`", S,
              "masked_rowsum"),
    Construct("array-strides", "`x.strides[k]` of an array parameter (literal k, negative too)",
              "the entry parameter `x_strideK: i32` the launcher fills (cutile 0.3.1 cannot read a tensor's strides "
              "in a kernel), with the facts cuTile Python assumes about it (non-negative, its divisibility), as "
              "strided gathers take it; a stride the launch fixes (the unit stride) is its constant",
              S, None, "tests/test_port.py SMALL_KERNELS `strides_k`"),
    Construct("num-blocks", "`ct.num_blocks(k)`", "`get_num_tile_blocks().k`", S, "persistent_scale"),
    Construct("cdiv", "`ct.cdiv(a, b)` on integer scalars, or on signed integer tiles (a scalar broadcast)",
              "`ceil_div(a, b)`; of tiles `divi(a, b, rounding::PositiveInf)`, as cuTile Python encodes it", S,
              "masked_rowsum"),
    Construct("helper-function", "calls to module-level helper `@ct.function`s (positional tile/scalar arguments, "
              "one final `return`), the kernel file's own or imported by name from another module (`from "
              "tileport.kernels.attention import online_step`); a string mode passed or defaulted (`mode=\"relu\"`, "
              "tested with `==`: folded, SMALL_KERNELS forms5); a `ct.PaddingMode` passed or defaulted (`pad="
              "ct.PaddingMode.NEG_INF` read by the helper's `ct.load`) and an int axis read as `t.shape[axis]`: "
              "folded, SMALL_KERNELS gen7_forms); an optional argument (`bias=None`) tested with `is None` / `is not "
              "None`: folded per call, as cuTile Python knows it from the argument's type); a helper calling "
              "itself until its constants end the recursion (`_pow_n(t, n // 2)` under `if n == 0: return ..`, "
              "`_fib(n - 1) + _fib(n - 2)`)",
              "inlined as a Rust block that binds the parameters and yields the result, as cuTile Python inlines it; "
              "an imported helper's fmas are matched at its own file's lines, and its file is part of the port's "
              "source digest (an edit to it makes the port stale); a recursive helper once per call, at most 16 "
              "deep (deeper: refused)", S, "mla_prefill"),
    Construct("helper-tuple", "a helper `@ct.function` returning several values, unpacked into names by the "
              "assignment that calls it (`m, l, acc = step(..)`: one online-softmax step shared by a kernel's loops), or "
              "kept under one name and read by index (`res = stats(t)`, `res[0]`); a tuple passed in unpacked in "
              "the helper (`x1, x2 = x`: SMALL_KERNELS gen8_unroll)",
              "the inlined block yields a Rust tuple, bound to a temporary and assigned name by name (loop-carried "
              "names stay `let mut`); one name: the tuple, `res.0`", S, "gemma_attention"),
    Construct("item", "`t.item()` of a one-element tile (e.g. a value loaded from an index array)",
              "`tile_to_scalar(t.reshape(shape![]))`", S, "group_gemm"),
    Construct("atomics", "`ct.atomic_add/max/min/and/or/xor/xchg(a, idx, update)`, `ct.atomic_cas(a, idx, "
              "expected, desired)` (integers, f32 and f64: a bitwise compare) on an array of any rank (one "
              "index tile or scalar per dimension, as gather-scatter-nd; bounds-checked, or not with a constant "
              "`check_bounds=False` (no check, no mask: round 20's s02 add_orders); any memory_order/"
              "memory_scope): add on i32/i64/u32/u64/f32/f64/f16/bf16, max/min (signed or unsigned by dtype), and/or/xor "
              "on integers, xchg on integers, f32 and f64 (the dtypes cuda.tile 1.7 takes); the old values as its "
              "result; values of another dtype converted to the array's where cuTile Python's implicit cast does "
              "(an i32 tile into an i64 histogram, f16 into f32)",
              "the gather/scatter pointer tile and bounds mask → `unsafe { atomic_rmw_tko(ptrs, v, atomic::Add|AddF|"
              "Max|Umax|Min|Umin|And|Or|Xor|Xchg, ordering::.., scope::.., Some(mask), Some(token)) }` (`atomic_cas_tko` "
              "for cas); several "
              "atomics in the kernel's top-level statements ordered as cuTile Python's token order does (each after "
              "its array's earlier gathers in its scope (round 25: `lu = ct.gather(labels, u)` then "
              "`ct.atomic_min(labels, ..)`), its array's last, the last acquiring one, and for release every array's last: a top-level store "
              "before a releasing atomic goes through the full tensor's partition to give its token, "
              "real_ln_bwd); the single atomic of a kernel inside a `for` or `while` loop after the previous iteration's (its "
              "token carried by the loop, real_while_atomics); relaxed atomics each of its own array (an MoE router's "
              "counts, a loss sum and a count, two histograms), before or after other arrays' stores, under a "
              "runtime `if` or in a loop: each ordered only after its own array's operations, as cuTile Python's "
              "token_order joins a relaxed atomic's token (no acquire or release join; round 17 p13_moe, "
              "p22_atomics2); gathers/scatters in the kernel's top-level statements "
              "after its one acq_rel atomic start from that atomic's token (a rank taken from a counter, then "
              "written at: llm/rank_scatter); other memory operations after an acquiring atomic (in a loop too: a "
              "MoE permute's slot from `ct.atomic_add`, then a store and a scatter there, SMALL_KERNELS gen8_permute) "
              "and a releasing atomic after a scatter: every operation ordered as cuTile Python's token_order pass "
              "orders it (each array's last operation and last write carried; irdiff fresh-tokens-one); a 0-d "
              "array's atomic is refused with the reason", S,
              "real_atomics",
              "cuTile Python orders the atomic after earlier loads by joining their tokens (carried through a loop "
              "that loads: split-K); cutile uses the tensor's own token: irdiff's read-only-load-tokens and "
              "loop-carried-invariant rules (loads of arrays nothing writes order nothing)"),
    Construct("kernel-hints", "`@ct.kernel(occupancy=N, num_ctas=M, num_worker_warps=W)` (ints, module constants "
              "too; W 4 or 8 with tileiras 13.4), each also as `ct.ByTarget(sm_90=.., default=..)` (or "
              "`from cuda.tile import ByTarget`)",
              "`#[cutile::entry(optimization_hints = (sm_90 = (occupancy = N, num_cta_in_cga = M, "
              "num_worker_warps_per_cta = W,),))]`: the same "
              "Tile IR entry hints, keyed by the target, each hint's sm_90 value (irdiff's hints-for-target rule: "
              "where a hint names sm_90, cuTile Python's `sm_90` entry holds only those, and tileiras applies them "
              "over `default`'s, hint by hint)", S, "row_softmax"),
    Construct("kernel-opt-level", "`@ct.kernel(opt_level=N)` (0 to 3, a literal or module constant, also "
              "`ct.ByTarget(sm_90=.., default=..)`)",
              "no Tile IR (cuTile Python passes `-ON` to tileiras; the IR is the same at every level): cutile's "
              "per-launch `CompileOptions::opt_level(N)` (its entry hints take no level), port.json's "
              "`compile_options`, with which the entries are compiled for the IR diff and launched by the runtime "
              "(a `replace_hints(opt_level=..)` launch's own level over it); 3 is the default, stated by neither",
              S, None, "proven with `tileport port` (round 21, s05 `with_opts`); the IR diff checks that the port's "
              "compile options state the reference's level"),
    Construct("kernel-hints-other", "hints that are not ints, an `opt_level` outside 0 to 3",
              "cutile's CompileOptions / per-architecture keys", P, None),
    Construct("atomics-other", "atomics on other dtypes (xchg / cas on f16 or bf16, add on 8/16-bit integers)",
              "`atomic_rmw_tko` / `atomic_cas_tko` of those dtypes", P, None,
              "cuda.tile 1.7 itself rejects `ct.atomic_max/min` on float arrays (\"Unsupported array dtype\")"),
)

#: The Triton frontend's rows: a Triton construct → the cuTile Python it lowers to (tileport.frontends.triton.lower),
#: which the rows above then carry to Rust. "dropped" rows are accepted and reported in the port's verdict.
D = "dropped"
TRITON_COVERAGE: tuple[Construct, ...] = (
    Construct("triton-program-id", "`tl.program_id(k)`, `tl.num_programs(k)`; `.to(tl.int64)` of an integer scalar",
              "`ct.bid(k)` / `ct.num_blocks(k)`, named where Triton names them; the widening is dropped (offsets "
              "become tile indices of views, addressed in 64 bits) and noted", S, "triton/vector_add"),
    Construct("triton-constexpr", "`tl.constexpr` parameters (a dtype one, `OUT_DTYPE=tl.float16`, resolved to the "
              "dtype every launch passes; a string one the launches pass several values of, `ACT=\"relu2\"` and "
              "`ACT=\"gelu\"`, only compared in `if`s); int/float scalar parameters; module constants bound "
              "once to a literal or `tl.constexpr(literal)`",
              "`ct.Constant[int|float|bool]` / `int`, `float` (scalars that only bound or stride a view are dropped "
              "from the lowered kernel: the view carries them; a string constexpr an int constexpr of codes, the "
              "values sorted, each launch passing its value's code); module constants inlined", S, "triton/softmax"),
    Construct("triton-specializations", "launches of one kernel that differ in what Triton specializes on and the "
              "lowered kernel cannot take as a parameter: a pointer some pass None for (an optional bias or residual: "
              "`if b_ptr is not None:`, `@triton.heuristics({\"HAS_B\": lambda a: a[\"B\"] is not None})`) and a "
              "dtype constexpr given several dtypes (`OUT=tl.float16` and `OUT=tl.bfloat16`)",
              "one port per specialization, as Triton compiles one: the capture names the launches by what differs, "
              "`NAME[b_ptr=None]`, `NAME[OUT=fp16]` (only where launches disagree), each lowered with the test on "
              "the pointer decided and a None pointer dropped (was: \"launches disagree on which parameters are "
              "tensors\", or a dtype the lowering could not resolve)", S, "idioms/idiom_bias_act"),
    Construct("triton-helpers", "`@triton.jit` helpers of the kernel's module or imported by name from a module of "
              "the project (`from .utils import f`, `from utils import f` beside the file), called as expressions or "
              "statements, returning a value or a tuple (`a, b = f(x)`), or returning inside `if` arms (an activation "
              "switch: the arm every launch takes, or, launches disagreeing, each return an assignment of the "
              "result and the statements after the `if` copied into the arms that fall through); tensor methods "
              "(`x.sum(axis=1)`, `x.exp()`, `x.argmax(0)`)",
              "inlined: their parameters bound to the arguments, the names they bind prefixed with theirs", S,
              "idioms/idiom_rms", "recursion, `return` inside a loop that touches memory or calls a helper, or "
              "inside nested loops (a pure one: rewrite loop-return), a path falling off the end"),
    Construct("triton-index", "`pid * B + tl.arange(0, B)`, `tl.arange(0, B)`, `tl.arange(LO, HI)` (constexpr "
              "bounds: `LO + tl.arange(0, HI - LO)`), `tl.arange(start=0, end=B)` (llm/kw_arange_ieee), placed with "
              "`[:, None]` / `[None, :]`",
              "tile index `pid` of a size-B tile dimension (used as a value: `ct.arange(B) + pid * B`)", S,
              "triton/vector_add"),
    Construct("triton-pointer", "`ptr + Σ index * stride` (stride a parameter or literal, index an index vector or "
              "a scalar); `ptr += offset` before use; `tl.load(ptr)` / `tl.store(ptr + i, scalar)` of one element",
              "an array view of the tensor with those strides (built at launch, no copy); "
              "`ct.load`/`ct.store` of it at the tile indices, size-1 dimensions for scalar indices (one element: "
              "a 1-element tile, which broadcasts as the scalar does); an access lacking a dimension of the view "
              "reads it at index 0, unless its unit-stride run `t * K + tl.arange(0, K)` steps whole rows of it "
              "(`w + t * K + kk` after `w + t * K + k`: row t of the view (K, 1); rows q blocks long: tile `t % q` "
              "of row `t // q`; an unmasked run whose block divides no row: every access of the array a gather)", S,
              "triton/softmax", "one layout per pointer parameter"),
    Construct("triton-mask", "`mask=offs < n` (joined by `&`; `n` an integer expression of parameters, `hd // 2`), "
              "row masks expanded (`m[:, None] & (cols[None, :] < n)`), `other=` 0, ±inf or nan",
              "the view's extent along offs is n (evaluated at launch): a padded `ct.load` (padding mode from "
              "`other`), a bounds-checked `ct.store`", S, "triton/rms_norm",
              "other masks or `other` values: planned (`triton-gather`)"),
    Construct("triton-block-ptr", "`tl.make_block_ptr(base [+ scalar offsets], shape, strides, offsets, "
              "block_shape, order)` with whole-block offsets (any offset along a block of one: a batch index), or "
              "other scalar offsets (`pid * BM + 1`, a runtime `n`: round 13); shapes and strides parameters, "
              "literals, or +, -, *, // of them (`M * N`); `boundary_check`, `padding_option` zero/nan",
              "a view with that shape and those strides; whole-block offsets become tile indices (`order` is a layout "
              "hint the strides already carry); other offsets make the block pointer's loads and stores "
              "`ct.gather` / `ct.scatter` of its elements, one index tile per dimension (outside the shape padded / "
              "skipped, as `boundary_check`: r13/bp_row_offsets)", S, "triton/matmul"),
    Construct("triton-advance", "`p = tl.advance(p, (0 | BLOCK | -BLOCK, ..))` once per iteration of the enclosing "
              "loop (`-BLOCK`: blocks walked backwards, llm/advance_back; `BK * SPLIT`, any whole number of blocks "
              "known at every launch: r13/advance_split_blocks) "
              "(a `range(lo, hi, BLOCK_N)` loop included); `p = tl.advance(p, (lo, 0))` outside loops by whole blocks "
              "(`start_m * BLOCK_M` along a BLOCK_N block when BLOCK_N divides BLOCK_M at every launch); offsets held "
              "in variables every value of which is whole blocks (`offs_am = pid_m * BLOCK_M` re-assigned in a loop); "
              "outside loops by other scalars (`(1, 0)`: the block's elements gathered from then on)",
              "the tile index follows the loop index (`(pid_m, k)`, `(j - lo) // BLOCK_N`); moves by "
              "`start_m * (BLOCK_M // BLOCK_N)`; `offs_am // BLOCK_M`", S, "tut/tut_block_ptr_band"),
    Construct("triton-pointer-loop", "loop bounds loaded from memory (`range(start, end)` from cu_seqlens: int32 "
              "`.item()`; int64 ones, an embedding bag's offsets, as int32: llm/bag_sum_int64; loaded in `range()`'s own "
              "arguments, each read once into a name before the loop: llm/bag_sum_int32); `ptrs += BLOCK * stride` (one block of one of the pointer's index vectors) "
              "once per iteration; masks on the vector it started from (`rk < K - k * BLOCK`); `p += row_stride` "
              "(a stride parameter: rows walked by increments; `+= 1` on a one-element pointer); "
              "`ptrs += BLOCK * SPLIT_K * stride` (a constexpr number of blocks > 0: split-K), masked by a bound "
              "the body computes (`k_rem = K - k * BLOCK * SPLIT_K`)",
              "the tile index follows the loop index (`pid_k + k * SPLIT_K`); the shifted mask is the view's extent "
              "(`K`)", S, "idioms/idiom_mm", "other updates of pointers, indices or masks inside a loop"),
    Construct("triton-dot", "`tl.dot(a, b, acc)`, `acc += tl.dot(a, b)`, `tl.dot(a, b)` of 16/8-bit operands (a zero "
              "f32 / int32 accumulator); `out_dtype=tl.float32`, and "
              "`input_precision=` / `allow_tf32=` on 16- or 8-bit operands (where they change nothing); f32 "
              "operands with `input_precision=\"ieee\"` / `allow_tf32=False` (f32 products); `out_dtype=tl.float16` on "
              "f16 / fp8 operands; f64 operands (an f64 accumulator, `out_dtype=tl.float64`: r13/dot_f64); 3-D "
              "(batched) dots `[B, M, K] x [B, K, N]`; an option given as a constexpr every "
              "launch gives alike (`input_precision=PREC`, llm/kw_arange_ieee)",
              "`ct.mma(a, b, acc)` (an f16 zero accumulator for `out_dtype=tl.float16`; a rank-3 one for batched "
              "dots: llm/half_acc_dot, llm/batched_dot)", S, "triton/matmul",
              "f32 operands at Triton's default precision (tf32 on the GPU) or tf32x3, with an accumulator or "
              "without, are refused (ct.mma of f32 tiles multiplies in f32; round 12: r12/f32_dot_default_acc); two "
              "fp8 formats (e4m3 x e5m2) are refused at the dot (cuTile's ct.mma takes one operand dtype)"),
    Construct("triton-dot-scaled", "`tl.dot_scaled(lhs, lhs_scale, fmt, rhs, rhs_scale, fmt, acc)` (Triton's "
              "microscaled product, sm_100; tutorial 10): both operands e2m1 (uint8 bytes, two 4-bit elements each "
              "along K, the first low), e4m3 or e5m2 (fp8, or uint8 bytes), e8m0 scales as uint8 or float8e4nv "
              "scales with e2m1 (nvfp4); `acc=` an f32 tile or none; a format given as a constexpr every launch "
              "gives alike",
              "`ct.mma_scaled(x, x_scale, y, y_scale, acc)`: e2m1 bytes `ct.unpack_from_bytes` of the flattened "
              "tile (the rhs through its transpose, its rows being K), reshaped; uint8 fp8 operands and e8m0 scales "
              "`ct.bitcast`; Triton's `[N, K / group]` rhs scale transposed to cuTile's `[K_s, N]` "
              "(tests/test_triton_dot_scaled.py)", S, "scaled/mx_mm",
              "refused saying why: two formats (e4m3 x e2m1: cuTile's mma_scaled takes one operand dtype, "
              "docs/triton.md), bf16 / fp16 formats, a None scale, `lhs_k_pack`/`rhs_k_pack=False`, "
              "`fast_math=True`, 3-D operands"),
    Construct("triton-shape-ops", "`tl.broadcast_to(x, shape)`, `tl.expand_dims(x, axis)`, `tl.maximum/minimum(.., "
              "propagate_nan=tl.PropagateNan.ALL)`, `tl.zeros(.., dtype=tl.int1)`, `tl.full(shape, ±inf, dtype)`, "
              "`tl.where(C, a, b)` on a constexpr test or on scalars; `a2, b2 = tl.broadcast(a, b)`; `mask=None` / "
              "`other=None` (also a helper's parameter defaulting to None: llm/none_mask_broadcast)",
              "`ct.broadcast_to`, `ct.reshape` with unit axes, `ct.maximum(.., propagate_nan=True)`, an int32 zero "
              "tile `!= 0`, `ct.zeros(..) + float('-inf')`, the taken side / `(a if C else b)`; `ct.broadcast_to` "
              "of each to the common shape; as if not given (Triton's meaning)", S, "llm/softcap_bcast", "other keyword options of element-wise functions"),
    Construct("triton-umulhi", "`tl.umulhi(x, y)` of 32-bit integer tiles (or a tile and a literal under 2^32)",
              "the high half of the unsigned 64-bit product: both zero-extended to uint64, multiplied, `>> 32`, "
              "truncated (Triton's tt.mulhiui is __nv_umulhi on the GPU, unsigned whatever the signedness; its "
              "interpreter sign-extends int32); a literal at or above 2^31 multiplied in 16-bit halves (cutile parses "
              "literals as i32)", S, "r12/umulhi_mix", "64-bit operands (a 128-bit product) refused"),
    Construct("triton-libdevice-bits", "libdevice `saturatef` / `fdim` of f32 tiles, `float_as_int` / "
              "`int_as_float` / `float_as_uint` / `uint_as_float`, and `mulhi` / `hadd` / `rhadd` / `mul24` / `ffs` "
              "of int32 tiles",
              "as libdevice.10.bc defines them (Triton's copy, disassembled; linked with nvvm-reflect-ftz set): "
              "saturate.ftz (`ct.where(x >= 2**-126, ct.minimum(x, 1.0), 0.0)`: NaN and subnormals 0), `a <= b ? 0 : "
              "a - b`, `ct.bitcast`, the int64 product `>> 32` (mulhi of uint32: tl.umulhi's), `(a & b) + ((a ^ b) >> "
              "1)` / `(a | b) - ((a ^ b) >> 1)`, each operand's low 24 bits sign-extended by shifts then multiplied, "
              "the lowest bit set smeared rightwards and counted (ffs); exact", S, "r22/libdevice_int_ops",
              "their 64-bit forms (mul64hi, ffsll), umul24 / usad / byte_perm and f64 fdim refused"),
    Construct("triton-llm-math", "`tl.fma(a, b, c)`, `tl.clamp(x, lo, hi)`, `tl.zeros_like/ones_like/full_like`, "
              "`tl.argmax/argmin(x, axis)`, `tl.max/min(x, axis, return_indices=True)`, `tl.reduce(x, axis, f)` with "
              "`f` a @triton.jit `a + b` / `a * b` / `tl.maximum(a, b)` / `tl.minimum(a, b)`",
              "`a * b + c` (fused by cuTile); `ct.minimum(ct.maximum(..))`; `ct.full(x's shape, v, dtype)`; the "
              "reduction, then the least index where x equals it (Triton's tie_break_left); `ct.sum/prod/max/min` "
              "(`tl.max` / `tl.min` of 8- / 16-bit tiles converted to int32 / f32 first, as Triton reduces them: "
              "r13/softmax_f16_rows; bf16 operands of tl.maximum / tl.minimum / tl.clamp, tl.argmax / argmin and "
              "tl.cumsum / cumprod inputs converted to f32, Triton's _promote_bfloat16_to_float32); libdevice `fmax` / `fmin` / `copysign` / `signbit` of f32 / f64 from "
              "libdevice.10.bc (fmaxf: the ftz max; the bits otherwise: r13/libdevice_bits)",
              S, "llm/argmax_rows", "another combine function: a tree of adjacent pairs, `f` inlined (a power-of-two "
              "axis, one size per launch: llm/welford_rows); erf and the libdevice functions cuTile Python 1.7 "
              "lacks are refused saying so (tuples: triton-pair-reduce)"),
    Construct("triton-split-join", "`tl.split(x)` (last axis of 2), `tl.join(a, b)`, `tl.interleave(a, b)`",
              "`ct.extract` of each half; a `ct.where` on a new last axis's index (reshaped for interleave; two "
              "halves of `B // 2`, B an even constexpr at every launch, are B long: int4 nibbles interleaved back "
              "into a tl.dot operand, llm/nibble_dot)", S,
              "llm/split_join"),
    Construct("triton-half-split", "a constant element offset that is a whole number of a unit-stride run's blocks "
              "at every launch (`base + HD // 2 + tl.arange(0, HD // 2)`: RoPE's second half); mask conditions every "
              "launch fills (`tl.arange(0, PAD) < N`, PAD <= N); index vectors widened (`tl.arange(0, B).to(tl.int64)`); "
              "elements grouped by a literal stride (`pairs[:, None] * 2 + tl.arange(0, 2)[None, :]`); an element "
              "offset that is k times a unit-stride run's mask bound (`x + row * stride + N + col`, `col < N`: the up "
              "half of a gate/up row; `+ 2 * N`)",
              "the run's tile index plus that number (`(pid, 0, 1)`); the condition dropped (noted); the widening "
              "dropped (noted); each unmasked run at tile 0 spans its block; index k of a dimension of stride N "
              "(the other accesses at index 0)", S, "llm/rope_fwd", "a padded half (PAD > N): the two halves bound one view "
              "differently and are refused"),
    Construct("triton-while", "`while i < n: ...; i += step` (step `tl.num_programs(k)`, a positive literal or "
              "constexpr; i, n, step not assigned otherwise; i not read after the loop); any other `while` whose "
              "test is a comparison (a spin lock `while tl.atomic_cas(lock, 0, 1) == 1: pass`, a loop on a loaded "
              "value, a spin-wait `while tl.load(flag, volatile=True) == 0: pass` on an integer flag), or two "
              "joined by `&` / `|` (a convergence loop `while (err > tol) & (it < MAX):`: llm/assume_converge)",
              "`for i_it in range(i, n, step)`; cuTile Python's `while` (names it assigns carried); the polled "
              "volatile load an acquiring `ct.atomic_or(flag, i, 0)` (a plain load's `while` is dead code to "
              "cuTile Python: llm/lookback_scan)", S,
              "llm/while_rows", "an atomic in a `while`'s test: ordered by the translator as cuTile Python orders it "
              "(acquire-ordered: tutorial 05's `_layer_norm_bwd_dx_fused`, tutorials/tut_spin_lock)"),
    Construct("triton-bitcast", "`x.to(dtype, bitcast=True)`", "`ct.bitcast(x, dtype)`", S, "llm/sign_bits"),
    Construct("triton-math", "`tl.exp/exp2/log/log2/sqrt/rsqrt/abs/sin/cos/tan/tanh/sinh/cosh/pow/atan2/floor/ceil/"
              "maximum/minimum/where/sigmoid` (also as `tl.math.*`, `libdevice.*` or imported by bare name), "
              "`tl.sum/max/min(x[, axis, keep_dims])`, `tl.trans`, `tl.zeros`, `tl.full`, `tl.cdiv`, `min`/`max`/"
              "`float` on scalars, operators",
              "the `ct.` function of the same name (`ct.transpose`, `ct.zeros`, ...), the same operators; an f32 "
              "`exp` (converted or loaded as f32) is `ct.exp2(x * log2 e)` as Triton computes it, an f32 `exp2` "
              "`ct.exp2(.., flush_to_zero=True)` (Triton's ex2.approx.ftz); an f32, f16 or bf16 `/` (an f32 quotient) "
              "Triton's div.full.f32 (`ct.truediv(.., rounding_mode=APPROX)` of the operands scaled by 1/4 where "
              "|denominator| > 2**126: the same sm_90 instructions, read with nvdisasm; by a literal or constexpr "
              "the scaling decided when it lowers), f32 `tl.sqrt`/`tl.rsqrt` their approx.ftz forms (`ct.sqrt(.., "
              "rounding_mode=APPROX, flush_to_zero=True)`, `ct.rsqrt(.., flush_to_zero=True)`: one MUFU "
              "instruction each, as Triton's) — `tl.math.div_rn`, `sqrt_rn`, `ieee_rounding=True`, libdevice's "
              "functions and the `ieee_div` option keep IEEE rounding; sigmoid "
              "`1 / (1 + exp(-x))` as Triton defines it (its division as above); `libdevice.pow(x, n)` of an int exponent (Triton calls "
              "libdevice's powif: Adam's bias correction at a step count, llm/pow_int_step) `ct.pow` of n converted "
              "to f32 (cuTile Python's integer exponent is Tile IR `fpowi`, which cutile 0.3.1 lacks; the same power, "
              "not checked bit for bit)", S, "triton/attention"),
    Construct("triton-cast", "`x.to(tl.<dtype>)`, `x.to(y.dtype)`, `x.to(p.dtype.element_ty)`, `tl.cast(x, dtype)`; "
              "the conversion `tl.store` makes",
              "`ct.astype(x, ct.<dtype>)` / `ct.astype(x, p.dtype)`; `.to(tl.int1)` of a number tile is `x != 0` "
              "(cutile converts nothing to bool)", S, "triton/layer_norm"),
    Construct("triton-control", "`for i in range/tl.range/tl.static_range(start, stop[, step])` (persistent "
              "`tl.range(pid, n, tl.num_programs(0))`, `tl.range(.., NUM_SMS, flatten=True, num_stages=, "
              "warp_specialize=)`; a negative step, `range(T - 1, -1, -1)`: a backward pass walking from the end, "
              "llm/reverse_rnn_bwd), `if` on constexprs or scalars (scalars re-assigned inside become variables); "
              "`if STAGE & 2:` / `if V.dtype.element_ty == tl.float8e5:` / `isinstance(x, tl.tensor_descriptor)` on "
              "constexprs, the launches' dtypes and argument kinds; `MASK=True` literals",
              "the same `for` / `if` (loop options dropped, noted; a loop counting down counts up, as cuTile "
              "Python's steps are positive: `for t_rev in range((a - b + s - 1) // s): t = a - t_rev * s`); an `if` on constexprs and module constants that "
              "every captured launch decides alike is folded (only the taken branch is lowered); one the launches "
              "decide differently (causal and not) stays, each arm lowered for the launches taking it", S,
              "tut/tut_attn_fwd"),
    Construct("triton-options", "launch options `num_warps`, `num_stages`, `num_ctas`, ...; `cache_modifier`, "
              "`eviction_policy`, `volatile`; `tl.static_assert`, `tl.device_assert`, `assert`, `tl.static_print`, "
              "`tl.device_print`, `tl.debug_barrier`; `tl.multiple_of`, `tl.max_contiguous`; `tl.assume(c)`",
              "none: cutile picks its own; each is listed in "
              "the verdict (`triton.options_dropped`, `triton.notes`); hints stand for their value", D,
              "triton/matmul"),
    Construct("triton-gather", "offsets computed as values (`src_ptr + idx`, idx a loaded tile), any boolean mask, "
              "`other=` a literal", "`ct.gather(src, offsets, mask=, padding_value=)` / `ct.scatter(..)` over the "
              "pointer's flat view (stride 1; each offset checked against its extent); through its row view `(S, 1)` "
              "when the pointer is also read as tiles, the offsets `o` split as `(r + o // S, o % S)` "
              "(docs/triton.md, \"Gathers through a row view\"; over views of more strided dimensions refused); one scalar "
              "stored at such offsets (`tl.store(logits + row * s + ids, float('-inf'), mask=..)`: a banned-token "
              "mask) a `ct.full` tile of the offsets' shape, as Triton broadcasts it", S,
              "triton/gather",
              "16-bit arrays: `other=` 0 only (cutile 0.3.1 has no half literal form; 0 is the type's ZERO)"),
    Construct("triton-masked-tile", "masks that are no view bound on a tile-shaped access: a comparison the other "
              "way round (`offs > n`), a bound computed in the kernel or loaded (`n < seq_len`, seq_len read from "
              "memory: a decode kernel's KV length), any boolean tile",
              "every access of that array a `ct.gather` / `ct.scatter` with the mask (the masked-off lanes neither "
              "read nor written, as in Triton; the array lowered again through the gather path)", S,
              "llm/decode_varlen"),
    Construct("triton-rand", "`tl.rand(seed, offsets)`, `tl.randn`, `tl.randint`, `r0, r1, r2, r3 = tl.randint4x(..)` / "
              "`tl.rand4x` (llm/philox_words) (seed a scalar argument or one "
              "int32/int64 element loaded: `tl.load(seed_ptr)`)",
              "Triton's Philox 4x32-10 written out in 64-bit unsigned tile arithmetic (high product `(a * b) >> 32`, "
              "low word a wrapping truncation), no literal of 2^31 or more (cutile 0.3.1 parses literals as i32: "
              "constants in 16-bit halves), Triton's uniform-float step after; randn: Box-Muller of the first two "
              "words' uniforms as triton.language writes it (llm/gauss_noise); randint: the first word as uint32; "
              "randint4x / rand4x: the four words (each folded to a uniform)", S,
              "llm/dropout_rand"),
    Construct("triton-sort", "`tl.sort(x, dim=-1, descending=)`, `tl.topk(x, k)` along the last axis (power-of-two "
              "sizes); `tl.gather(x, idx, axis)` within a tile",
              "triton.language's bitonic network written out: partners by `ct.extract`/`ct.cat` of a `(.., 2, "
              "2^i)` view, `ct.where((x > y) != (flip ^ right), y, x)`, top-k halvings by `ct.max` (exact); a one-hot "
              "sum of x's bits over a new axis, bitcast back (exact; llm/gather_in_tile)", S, "llm/top_p_sorted"),
    Construct("triton-tile-builtins", "`tl.flip(x, dim)`, `tl.softmax(x, dim, keep_dims)`, `tl.histogram(x, n, "
              "mask=)`, `tl.cat(a, b, can_reorder=True)`, `libdevice.llrint/llround`, `tl.sum(x, dtype=)` (and its "
              "int32 widening of narrow integers and booleans), `tl.math.sqrt_rn/fast_expf/fast_dividef`",
              "the halves of each level swapped by `ct.extract`/`ct.cat` (exact); triton.language's own definition "
              "(`exp(x - max)`, `/ sum`); the sum over x's axis of the one-hot comparison with `arange(n)` (int32; "
              "values outside [0, n) and masked lanes in no bin); `ct.cat((a, b), 0)`; the exact rint/round then "
              "int64; `ct.sum` of the converted tile; `ct.sqrt`, Triton's f32 exp form, `ct.truediv(.., "
              "rounding_mode=APPROX)`", S, "llm/expert_histogram",
              "`tl.xor_sum` / `tl.reduce_or` / `tl.reduce` with `a ^ b`, `a | b`, `a & b`: halves combined pairwise "
              "(exact; llm/bitwise_reductions), not cutile 0.3.1's ct.reduce with a function (built along dimension 0 "
              "with identity 0)"),
    Construct("triton-int-promotion", "an integer literal in [2^31, 2^32) with an integer tile (`offs * "
              "2654435761`: Triton's uint32 constant), `~` of literals and integer tiles, an integer tile with a float "
              "one (`x * tl.where(x > 0, 1, -1)`), `other=0` on an integer array gathered; integer tiles of mixed "
              "signedness (`bits + r`, r a uint32: llm/unsigned_mix)",
              "the tile converted to uint32 and the literal written in 16-bit halves (products) or two halves (sums): "
              "exact modulo 2^32, no literal beyond int32 (cuTile Python and cutile 0.3.1 take none); `~c` folded, "
              "`~t`; the integer tile `ct.astype` to the float dtype (as Triton promotes); an integer padding; the "
              "pair converted to Triton's promotion (the unsigned dtype when at least as wide; cuTile Python promotes "
              "no mixed signedness)", S,
              "llm/hash_keep", "a negative literal with an unsigned tile is refused, as Triton refuses it"),
    Construct("triton-trunc-div", "`v // d`, `v % d` of a signed integer tile that may be negative (a loaded "
              "relative position, a paged cache's slot split by a runtime block size: llm/slot_divmod); "
              "`tl.cdiv(counts, B)` of a tile",
              "Triton's C division in cuTile's floor division: `ct.where((v % d != 0) & (v < 0), v // d + 1, v // "
              "d)` where d is > 0 at every launch or >= 0 by its form (a size argument), the sign of each tested "
              "otherwise (llm/rel_buckets)", S, "llm/slot_divmod",
              "a divisor tile of unknown sign beside a scalar's sign test: unproven (cutile 0.3.1 compares no bool "
              "tile with a bool scalar)"),
    Construct("triton-wide-int", "an integer literal beyond 32 bits (`tl.where(m, x, -9223372036854775807)`, an int64 "
              "reduction's padding)", "an int64 0-d tile from 16-bit pieces, `((ct.full((), hi, dtype=ct.int64) * "
              "65536 + a) * 65536 + b) * 65536 + c` (exact: every partial value lies in int64; cutile 0.3.1 parses "
              "every literal as i32)", S, "llm/wide_int_sentinels", "a literal beyond int64 is refused"),
    Construct("triton-atomic-add", "`tl.atomic_add/max/min/and/or/xor/xchg(ptr + offs, val, mask=, sem=, scope=)`, "
              "`tl.atomic_cas(ptr, cmp, val, sem=, scope=)` (their value: the old elements); a one-element update "
              "at one address (`tl.atomic_add(loss, lse - tl.load(x + y))`: llm/ce_loss_atomic); `tl.atomic_max/min` "
              "of an f32 value at one address (an fp8 scale's absolute maximum, a row maximum: "
              "llm/f32_atomic_extrema)",
              "`ct.atomic_<op>(flat view, offsets, val)`, masked-off lanes sent past the end (the bounds "
              "check skips them); sem/scope as memory_order/memory_scope; an array also loaded or stored is "
              "gathered/scattered at every access (one token chain); a one-element update reshaped to 0-d; an f32 "
              "max/min a compare-and-swap loop (`ct.atomic_cas` on the f32 array until it returns what was expected) "
              "applying Triton's own update of the bits (signed max where the value's sign bit is clear, unsigned "
              "min where it is set; written with signed operations): exact, signed zeros and NaNs as Triton orders "
              "them; at several addresses, again for the lanes that lost their swap until none is left", S,
              "idioms/idiom_atomic",
              "the translator's atomics (add on i32/i64/f32, max/min/and/or/xor on integers, xchg, cas on integers "
              "and f32); a pointer reinterpreted as another dtype "
              "(`p.to(tl.pointer_type(tl.int32))`)"),
    Construct("triton-trans-scan", "`tl.trans(x)`, `x.T`, `tl.permute(x, dims)`, `tl.cumsum` / `tl.cumprod`, "
              "`tl.associative_scan(x, axis, f)` with any @triton.jit `f` (a running max, a segmented sum over "
              "`(value, flag)`, a linear recurrence; `reverse=`); `tl.ravel`, `tl.view`; `tl.swizzle2d`; "
              "`tl.trans(mask)` of a mask of bounds (a transposed store's)",
              "`ct.transpose` / `ct.permute` / `ct.cumsum` / `ct.cumprod`; `ct.reshape`; Triton's swizzle on "
              "scalars, its parts bound to names (inlined into a GEMM's tile indices they nested past what the port "
              "compiles: llm/swizzle_bp_mm); a scan along another axis than the first as the axis-0 scan of the tile with that axis "
              "moved first (`ct.transpose(ct.cumsum(ct.transpose(x), axis=0))`: llm/row_cumsum); a combine other "
              "than `a + b` by recursive doubling, `f` inlined on `ct.extract`ed halves (only associativity used, "
              "no identity: llm/seg_scan_flags, llm/lin_rec_scan, llm/cumprod_cols)", S,
              "idioms/idiom_scan_t",
              "cutile 0.3.1 builds every scan along dimension 0 (hence the moved axis) and with identity 0 (hence "
              "the doubling); a doubled scan needs a power-of-two axis, one size per launch"),
    Construct("triton-carried-literal", "a float or int literal a loop re-binds to a 0-d tile (`m = 0.0` then "
              "`m += tl.sum(x)`; `best_i = 0` then `best_i = off + i` under an `if` in the loop, i a 0-d int32 "
              "index: a running arg-max over vocabulary chunks; an int flag `done = 0` then `done = tl.where(ok, done, 1)` "
              "of loaded elements: llm/accept_prefix; `sum_x = 0.0` accumulated only under a constexpr `if` in the loop, "
              "launched both ways: a chunked cross-entropy's label smoothing, llm/smoothing_chunks)",
              "`ct.full((), 0, dtype=ct.int32)` / `ct.full((), 0.0, dtype=ct.float32)`; a 1-element value given to it "
              "`ct.reshape(.., ())`: the loop carries one type, as Triton's does after its promotion", S, "llm/running_argmax",
              "an integer tile a loop makes from a float literal (no such promotion)"),
    Construct("triton-pair-reduce", "`v, i = tl.reduce((x, idx), axis, f)` with `f(v1, i1, v2, i2)` returning "
              "`tl.where(c, v1, v2), tl.where(c, i1, i2)`, c = `(v1 > v2) | ((v1 == v2) & (i1 < i2))` (an arg-max "
              "with the least index winning ties; `<` on the values: arg-min; operands in either order, `<=` on the "
              "indices, the arms swapped with the test on the second pair; assignments before the return read "
              "through); `tl.associative_scan((a, b), axis, f)` with `f` component-wise (`a1 + a2, b1 + b2`)",
              "`ct.max(x, axis)` and `ct.min(ct.where(x == max, idx, 2147483647), axis)` (the same pair whatever "
              "order the tree combines in); one `ct.cumsum` per component (llm/pair_scan)", S, "llm/argmax_pairs",
              "other combines of a tuple (Welford's merge, ties to the larger index, a linear recurrence): the tree "
              "of pairs / recursive doubling of triton-llm-math and triton-trans-scan (cutile 0.3.1 builds no "
              "reduction or scan of a function of the user's)"),
    Construct("triton-descriptor", "tensor descriptors: `TensorDescriptor` arguments (captured with their block "
              "shape), `tl.make_tensor_descriptor` (and Triton 3.3's `tl._experimental_make_tensor_descriptor`), "
              "`desc.load([..])` / `desc.store([..], v)`",
              "at whole-block offsets `ct.load` / `ct.store` of the descriptor's view (its shape and strides), tile "
              "index = offset / block, block dims named by the constexpr that carries them; at other offsets "
              "(`off_hz * N_CTX + start_m * BLOCK_M`, N_CTX a runtime size) a gather / scatter of the descriptor's "
              "elements, one index tile per dimension (exact: out of bounds reads 0 and writes nothing, as TMA)", S,
              "tut/tut_attn_fwd", "Triton <= 3.3's host-filled descriptor buffers (`tl._experimental_descriptor_load`"
              "): refused, the described tensor is not a kernel argument"),
    Construct("triton-permuted-read", "one pointer read through the same strides in two axis orders (`qT = Q + "
              "offs_m[None, :] * s_tok + offs_k[:, None] * s_d`, later `Q + offs_m[:, None] * s_tok + ..`); "
              "`x + off_z * s_z + off_h * s_h` through one scalar; `index * (HEAD_DIM * N_CTX)`; "
              "`pid * BLOCK_N + tl.arange(0, BLOCK_M)` with BLOCK_M dividing BLOCK_N",
              "one view (the first access's order), the other tile `ct.transpose` / `ct.permute`d; a dimension per "
              "stride; one stride that is a product of parameters; tile index `pid * (BLOCK_N // BLOCK_M)`", S,
              "tut/tut_attn_bwd_dkdv"),
    Construct("triton-pointer-rows", "`p += H * K_DIM` / `x_ptr += step * stride` (a loop-invariant number of rows "
              "of one of the pointer's strides, or of blocks of its unit-stride run: heads interleaved with time in "
              "a recurrence; `step = tl.num_programs(0)` in a grid-stride loop); `x_ptr += row * stride + cols` "
              "(an offset bound before it reaches the pointer)",
              "the row index follows the loop index (`i_h + t * H`; `pid + (row - pid)` when the rows advanced are "
              "the loop's step); the offset's terms as `x_ptr + row * stride + cols` has them (a view)", S,
              "llm/heads_recurrence"),
    Construct("triton-arm-bounds", "one array read with different bounds along a stride in the two arms of a "
              "constexpr `if` the launches decide differently (`if TRANS: x = tl.load(X + n[None, :] * s0 + m[:, "
              "None] * s1, ..) else: .. m * s0 + n * s1`)",
              "one view whose extents are chosen at launch (`(M if TRANS else N)`)", S, "llm/trans_flag"),
    Construct("triton-local-names", "a kernel local named like the lowered code's module (`ct = tl.load(c_ptr)`); "
              "`p.dtype.element_ty` of a pointer variable or block pointer; `other=` a scalar argument (a gather "
              "too) or a tile (`other=prev`)",
              "renamed (`ct_`); the array's dtype; the masked lanes selected to it", S, "llm/fill_window"),
    Construct("triton-element-in-view", "one element of an array read through a block pointer's view at an offset "
              "of other strides (`tl.load(g + i_bh * T + i_t * BT + last)` beside `tl.make_block_ptr(g + i_bh * T, "
              "(T,), (1,), (i_t * BT,), ..)`)",
              "addressed in that view (`i_t * BT + last` along the unit stride: a launch-known multiple of a view "
              "stride moves onto it)", S, "llm/chunk_gate_last"),
    Construct("triton-constexpr-function", "`@triton.constexpr_function` helpers (Python run at compile time on "
              "constexprs: `BLOCK // _pick(N)`)",
              "one `return` of an expression: inlined as a helper; any other body: run on each captured launch's "
              "constexprs to one literal (launches that disagree: refused at the call)", S,
              "r19/constexpr_fn_rows"),
    Construct("triton-refused-arm", "an arm of a constexpr `if` the lowering refuses (`if ACT == \"gelu\":` reaching "
              "`tl.erf`) among launches that do not reach it",
              "the kernel lowered for the launches that do not reach it; the others refused with the arm's "
              "file:line:col in the lowering report, the verdict, the corpus row and at run time", S, "r19/act_arms"),
    Construct("triton-index-forms", "`x[None]` / `offs[None]` (a lone None), a tuple comprehension over a tuple "
              "argument of tensors (`[tl.load(p + o) for p in srcs]`), `tl.max(.., return_indices=True, "
              "return_indices_tie_break_left=False)`, `libdevice.fmax/fmin/copysign/fast_dividef` with a number "
              "among their operands",
              "`x[None, :]`; the tuple of the element's values; the last index of the maximum; the number a 0-d "
              "tile of the operands' dtype, as Triton converts it", S, "r19/none_index_expand"),
    Construct("triton-same-stride-runs", "a load / store through two index runs of one stride (`tl.arange(0, 1)[:, "
              "None, None] + r[None, :, None] * N + c[None, None, :]`: strides 1, N, 1)",
              "a gather / scatter (a view's extents are undecidable there)", S, "r19/same_stride_runs"),
    Construct("triton-static-triangle", "`for j in tl.static_range(i + 1)` inside `for i in tl.static_range(R)`",
              "the outer loop `ct.static_iter` (unrolled, as Triton unrolls it): each inner loop's bound a constant",
              S, "r19/static_triangle"),
    Construct("triton-api-sweep", "`tl.add` / `tl.sub` / `tl.mul` (`sanitize_overflow=` too); `.T` of an "
              "expression (`x.to(tl.float32).T`); a conditional expression of tiles on a run-time scalar (`x * 3.0 "
              "if flag > 1 else -x`); `tl.xor_sum` / `tl.reduce_or` / `tl.sum` / `tl.cumsum` of a tile the launches "
              "pass as several integer dtypes (int8 and int32); libdevice's `add_rn` / `sub_rd` / `mul_rz` / "
              "`div_ru` ..; `while tl.condition(i < n, disable_licm=True):`",
              "the operator; `ct.transpose`; `ct.where(flag > 1, .., ..)` (both arms computed, the taken one kept); "
              "each launch's reduction as Triton's (a narrow integer added in 32 bits; launches whose widened types "
              "differ, or f32 operands of a `tl.dot` at its default tf32 among others, refused); `ct.add` / `ct.sub` "
              "/ `ct.mul` / `ct.truediv` with that `rounding_mode`; the `while` of the test", S,
              "r20/operator_functions"),
    Construct("triton-round23", "a tensor descriptor's `desc.gather(rows, y)` / `desc.scatter(v, rows, y)` / "
              "`desc.atomic_add([..], v)` (and atomic_min / max / and / or / xor); a pointer tensor's members "
              "`ptrs.store(v, mask=)` / `ptrs.atomic_add(v, mask=)`; `x + n - 1 - offs` (a pointer minus offsets); "
              "`tl.max` / `tl.min` of a boolean tile; `tl.umulhi(x, s)` by a run-time scalar; `/` of run-time "
              "scalars (`1.0 / n`) and of integer tiles; `tl.exp` / `tl.sigmoid` of a float argument; `tl.math.erf` / "
              "`libdevice.erf` of f32; `tl.softmax` of a 16-bit row",
              "`ct.gather` / `ct.scatter` at (rows[:, None], y + arange[None, :]) and `ct.atomic_<op>` at the "
              "block's element indices of the descriptor's view (out of bounds read as padding, skipped when "
              "written, as TMA); `tl.store` / `tl.atomic_add` of the pointer; the negated offsets gathered; the "
              "reduction of `ct.where(x, 1, 0)` (int32, as Triton widens i1); the scalar's 32 bits as a tile's; "
              "Triton's f32 division (div.full.f32) of the operands converted to f32 (0-d tiles for scalars); "
              "exp2(x * log2 e) of a 0-d f32 tile; libdevice's `__nv_erff` step by step (its fused multiply-adds, "
              "ex2.approx.ftz: Triton's values); the softmax's `x - max(x)` in f32 (tl.max widens 16-bit floats), "
              "so its exp, sum and quotient are f32 as Triton's", S, "r23/scalar_quotients",
              "a quotient of constexprs stays Python's (folded by Triton); f64 erf, erfc, erfinv stay refused; "
              "`tl.sigmoid` of f16 refused, as Triton refuses it (its exp takes f32 / f64)"),
    Construct("triton-round24", "`tl.load_tensor_descriptor(desc, offsets)` / `tl.store_tensor_descriptor(desc, "
              "offsets, value)`; libdevice's `int2float_rn` / `uint2float_rn` / `ll2float_rn` / `ull2float_rn` / "
              "`*2double_rn` / `double2float_rn` / `double2float_rz`, `double2hiint` / `double2loint` / "
              "`hiloint2double` / `double_as_longlong` / `longlong_as_double`, `sad`, `rcp_rn` .. `rcp_ru`; "
              "`tl.bitonic_merge`; a constexpr tuple (`SHAPE: tl.constexpr` passed `(4, 8)`); 8- / 16-bit offsets "
              "(`tl.arange(0, N).to(tl.int16)`); a flat tensor read through three unmasked levels; `tl.clamp` of "
              "an integer tile; tensor members `x.xor_sum(1)`, `x.associative_scan(0, f)`, `x.cast(..)`, `x.cdiv(4)`; "
              "a kernel a factory makes (`SCALE = tl.constexpr(scale)` in its closure)",
              "the descriptor's `load` / `store`; `ct.astype` (RN, or RZ); bitcasts of the f64 / int64 bits; "
              "`c + where(a < b, b - a, a - b)` (wrapping); `ct.truediv(1, x)` with that rounding mode (f32 "
              "flushing subnormals, as `__nv_frcp_rn` under Triton); the last merge of tl.sort's bitonic network; "
              "one constexpr per element (`SHAPE__0`, ..); the offsets widened to int32; each inner level up to "
              "the next larger stride, the outermost the pieces left; refused with Triton's reason (it clamps "
              "floats only), an integer tile with a float bound converted to f32; the triton.language function with x "
              "first (`x.sort(..)` / `x.topk(k)`, which Triton 3.6 cannot compile, refused); the factory's kernel found "
              "in its body, the closure's constexprs captured and read as module constants", S, "r24/ld_conversions",
              "libdevice's `fast_logf` / `fast_sinf` .. (approximate instructions), `int2float_rz` .. (integer to "
              "float rounded otherwise than to nearest), `double2float_rd` / `_ru`, float to unsigned, `fma_rz` .., "
              "`rsqrt_rn` refused with their reason"),
    Construct("triton-round25b", "`and` / `or` / `not` with a tensor among the operands: loaded elements (`if pd > "
              "0 and pt / pd >= u:`, speculative decoding's acceptance) and boolean tiles (`(x > lo) and (x < hi)`, "
              "`inside and not far`); `tl.atomic_max` / `tl.atomic_min` of an f32 tile at several addresses (a "
              "segment maximum by sorted ids)",
              "Python's `and` / `or` / `not` of 0-d truths where every operand is a scalar or one loaded element, "
              "as Triton's logical_and / not_ of i1 scalars; `&` / `|` / `~` of boolean tiles lane by lane (Triton's "
              "compiler: `arith.andi` / `arith.xori` of i1 tensors); each lane's compare-and-swap loop, again for the "
              "lanes that lost theirs (lanes of one address among them) until none is left", S, "r25b/accept_chain",
              "a non-boolean operand (`pd and ..`, `not x` of a float) refused with Triton's reason (it bitcasts each "
              "operand to i1)"),
    Construct("triton-other", "`tl.randn`/`tl.randint`, 64-bit scalars",
              "the matching cuTile constructs", P, None),
)

#: cuda.tile functions → the construct row that translates them (the emitter refuses a call through this map).
CALL_CONSTRUCTS = {"sum": "reduce", "max": "reduce", "min": "reduce", "exp": "math", "exp2": "math", "mma": "mma",
                   "matmul": "mma", "reshape": "reshape-broadcast", "expand_dims": "reshape-broadcast",
                   "gather": "gather-scatter", "scatter": "gather-scatter", "load_advanced_indexing": "load-advanced",
                   "store_advanced_indexing": "store-advanced", "arange": "arange", "full": "full",
                   "zeros": "full", "ones": "full", "num_tiles": "num-tiles", "cdiv": "cdiv",
                   "num_blocks": "num-blocks", "atomic_add": "atomics", "extract": "extract",
                   "broadcast_to": "reshape-broadcast", "cat": "cat", "isnan": "isnan",
                   "assume_divisible_by": "assume-divisible", "argmax": "argmax", "argmin": "argmax",
                   "static_assert": "static-assert", "bitcast": "bitcast",
                   "mma_scaled": "mma-scaled", "unpack_from_bytes": "pack-bytes", "pack_to_bytes": "pack-bytes", "static_iter": "static-iter",
                   "static_eval": "static-eval", "divmod": "int-floordiv", "assert_": "assert",
                   "printf": "print", "print": "print", "insert": "insert",
                   "grid_dependency_control_wait": "grid-dependency-control",
                   "grid_dependency_control_launch_dependents": "grid-dependency-control", "reduce": "reduce-custom",
                   "scan": "reduce-custom", "cumprod": "scan", "astile": "astype",
                   "ScalarInt64": "param-scalar", "IndexedWithInt64": "array-index-i64"}


#: public cuda.tile callables that are not kernel operations (host side, decorators, annotations)
HOST_SIDE = frozenset({"launch", "kernel", "function", "compiler_timeout", "Constant", "foreign_pointer_dtype"})


def _api_rows() -> tuple[Construct, ...]:
    """One planned row per public function of the installed cuda.tile that no row above translates, so that
    nothing of the language is missing silently: a call to one is refused under its own row, ``api-NAME``."""
    try:
        import cuda.tile as ct
    except ImportError:   # (the core's docs are generated where cuda-tile is installed)
        return ()
    from .optables import BINARY_MATH, PLAIN_BINARY_MATH, PURE_CT_CALLS, UNARY_MATH
    from .resolve import OPERATOR_FUNCTIONS, RESOLVED_CALLS, UNARY_OPERATOR_FUNCTIONS   # (rewritten to
    # operators: rows bitwise, compare, int-floordiv; or gone once the reference compiled)

    handled = set(CALL_CONSTRUCTS) | set(PURE_CT_CALLS) | set(BINARY_MATH) | set(UNARY_MATH) | \
        set(PLAIN_BINARY_MATH) | {"load", "store", "bid", "astype", "where", "permute", "transpose", "cumsum",
                                  "scatter", "atomic_add", "atomic_max", "atomic_min", "atomic_and",
                                  "atomic_or", "atomic_xor", "atomic_xchg", "atomic_cas", "maximum", "minimum"} | set(OPERATOR_FUNCTIONS) | \
        set(UNARY_OPERATOR_FUNCTIONS) | RESOLVED_CALLS
    rows = []
    for name in sorted(vars(ct)):
        value = getattr(ct, name)
        if name.startswith("_") or name in handled or name in HOST_SIDE or not callable(value) or \
                isinstance(value, (type, ct.DType)) or not getattr(value, "__module__", "").startswith("cuda.tile"):
            continue
        rows.append(Construct(f"api-{name}", f"`ct.{name}(...)`", "", P, None,
                              "from cuda.tile's public API; not translated yet"))
    return tuple(rows)


API_COVERAGE = _api_rows()
BY_ID = {c.id: c for c in COVERAGE + TRITON_COVERAGE + API_COVERAGE}


def construct_for_call(op: str | None) -> str:
    """The coverage row of a call to ``ct.op`` (a helper call when op is None)."""
    if op is None:
        return "helper-function"
    if op in CALL_CONSTRUCTS:
        return CALL_CONSTRUCTS[op]
    if op.startswith("atomic_"):
        return "atomics-other"
    return f"api-{op}" if f"api-{op}" in BY_ID else "math"


def supported(construct_id: str) -> bool:
    return BY_ID[construct_id].status == S


def coverage_markdown() -> str:
    from ..mdtable import render

    rows = [[f"`{c.id}`", c.python, c.rust, c.status, c.example or "", c.note] for c in COVERAGE + API_COVERAGE]
    triton = render("Triton frontend", "", "", ["id", "Triton", "lowered cuTile Python", "status", "example", "note"],
                    [[f"`{c.id}`", c.python, c.rust, c.status, c.example or "", c.note] for c in TRITON_COVERAGE])
    triton = triton.split("\n", 3)[3].lstrip("\n")  # the table only: the title and note come from here
    from .resolve import rewrites_markdown

    resolved = ["## Names and forms resolved before translation", "",
                "`translate/resolve.py` resolves a kernel's names against its module (as cuTile Python does) and "
                "rewrites these forms into the spelling the rows above translate; the rewritten nodes keep their "
                "source positions.", "", rewrites_markdown().rstrip("\n"), ""]
    return render("Translator coverage",
                  "src/tileport/translate/coverage.py` by `python -m tileport.translate.coverage > docs/coverage.md",
                  "A construct whose status is not *supported* is refused with `file:line:col`.",
                  ["id", "Python", "Rust", "status", "example", "note"], rows,
                  footer=[*resolved, "## Triton frontend", "",
                          "A `@triton.jit` kernel is lowered to cuTile Python first (`tileport port` writes "
                          "`lowered.py` beside the port), so every row above applies to what it lowers to; these "
                          "rows say what the lowering accepts. Anything else is refused with `file:line:col`. "
                          "*dropped* rows are accepted and reported in the verdict.", "", triton.rstrip("\n")])


if __name__ == "__main__":
    print(coverage_markdown(), end="")
