"""The data irdiff works from: which ops are pure, and every canonicalization and rewrite it may apply.

Each entry of :data:`RULES` is one equivalence irdiff accepts, with the argument for why it preserves meaning and
the unit test that pins it down (tests/test_irdiff_rules.py checks every rule has one). A verdict lists each rule
that fired. Anything not covered here is reported as a difference.
"""
from __future__ import annotations

from dataclasses import dataclass

#: Ops without side effects: unused ones are dead, identical ones are the same value. Unknown ops are treated as
#: effectful (kept, ordered), which is the conservative choice.
PURE_OPS = frozenset("""
constant make_token assume get_tile_block_id get_num_tile_blocks make_tensor_view make_partition_view
get_index_space_shape get_tensor_shape reshape broadcast iota permute transpose extract cat offset select
addf subf mulf divf remf negf absf maxf minf fma addi subi muli divi remi negi absi maxi mini mulhii
exp exp2 log log2 sqrt rsqrt tanh sin cos tan sinh cosh pow fpowf fpowi atan2 floor ceil
cmpf cmpi andi ori xori shli shri ftof itof ftoi exti trunci bitcast int_to_ptr ptr_to_int
mmaf mmai reduce scan join_tokens
""".split())

#: Region terminators: roots of their region, never dead.
TERMINATORS = frozenset({"return", "yield", "continue", "break"})


@dataclass(frozen=True)
class Rule:
    id: str
    kind: str          # "canonicalization" (form only) or "rewrite" (a proven-equivalent different computation)
    summary: str
    why: str
    test: str          # the test function in tests/test_irdiff_rules.py that pins it


RULES: tuple[Rule, ...] = (
    Rule("ssa-names", "canonicalization", "value names are ignored; values are identified by how they are computed",
         "SSA names carry no meaning", "test_ssa_names"),
    Rule("pure-op-placement", "canonicalization",
         "a pure op is the same value wherever it sits — in a loop body or before the loop; a reduce/scan body's "
         "arguments are identified by their position in it, not by how deep the op is nested",
         "a pure op is a function of its operands alone, and a reduce/scan body only of its own arguments; cuTile "
         "Python hoists loop-invariant ops out of a loop (its code_motion pass), cutile leaves them where the source "
         "has them", "test_pure_op_placement"),
    Rule("debug-locations", "canonicalization", "loc(...) annotations are dropped", "debug info only",
         "test_debug_locations"),
    Rule("entry-symbol", "canonicalization", "the entry's symbol name is ignored",
         "cuTile Python mangles the signature into it, cutile appends _entry", "test_entry_symbol"),
    Rule("entry-prologue", "canonicalization",
         "entry arguments are identified by role (array k's pointer / shape d / stride d / extra j, scalar k) from "
         "the calling-convention layout; unused arguments are dropped",
         "cuTile Python passes ptr, shape.., strides.. per array; cutile adds partition arguments for mutable "
         "tensors; an argument no op reads cannot change what the kernel computes", "test_entry_prologue"),
    Rule("empty-optimization-hints", "canonicalization",
         "optimization_hints=<default = {}> equals no hints, on the entry and on any op",
         "an empty hint dictionary is the default", "test_empty_hints"),
    Rule("hints-for-target", "canonicalization",
         "optimization_hints are read as the ones that apply on the compile target: `default`'s, with its own "
         "key's over them hint by hint (`<sm_90 = {h}>` and `<default = {h}, sm_80 = {g}>` are both `<default = "
         "{h}>` for sm_90; `<default = {w = 8, o = 1}, sm_90 = {o = 2}>` is `<default = {o = 2, w = 8}>`)",
         "default hints apply to every target, a target's own entry replaces those it names there, and another "
         "target's entry applies only there (cuTile Python writes `default` and every `ct.ByTarget` key, cutile "
         "writes the target it compiles for; tileiras 13.4 compiles `num_worker_warps=8, occupancy=ByTarget(sm_90=2, "
         "default=1)` to the sm_90 cubin of `num_worker_warps=8, occupancy=2`, byte for byte)",
         "test_hints_for_target"),
    Rule("dead-pure-ops", "canonicalization", "pure ops whose results are never used are dropped",
         "no side effects, no uses: removing them changes nothing", "test_dead_pure_ops"),
    Rule("common-pure-subexpressions", "canonicalization",
         "identical pure ops on identical operands are one value (includes repeated make_token, "
         "get_tile_block_id, constants)",
         "pure ops are functions of their operands; a fresh token orders nothing, so any two are interchangeable",
         "test_common_pure_subexpressions"),
    Rule("identity-shape-ops", "rewrite",
         "a reshape, broadcast or bitcast whose result type equals its operand's type is the operand",
         "it moves no element, changes no shape and reinterprets no bit: cutile's broadcast_scalar to a 1x1 tile "
         "emits one, cuTile Python elides it (cutile's i64→u64 view of an index is a bitcast of tile<i64> to "
         "itself)", "test_identity_shape_ops"),
    Rule("splat-constants", "rewrite",
         "a broadcast or reshape of a scalar constant (through reshapes) is the constant tile of its type",
         "every element of the broadcast is the scalar's value: `constant <v> : tile<NxT>` denotes exactly that tile "
         "(cuTile Python folds some splats, e.g. integer gather padding, and not others)", "test_splat_constants"),
    Rule("assume-nonneg-block-id", "rewrite",
         "assume bounded<0, ?> applied to a block id or block count is the value itself",
         "block ids and grid sizes are never negative, so the assumption holds by construction and only restates "
         "a fact", "test_assume_nonneg_block_id"),
    Rule("assume-nonneg-loop-iv", "rewrite",
         "assume bounded<0, ?> on the induction variable of `for iv in (lo to hi, step s)` is the variable itself, "
         "when lo ≥ 0 is proven (as for cdiv-rounding) and s > 0 (a positive constant or the grid size)",
         "iv takes the values lo, lo+s, ... < hi, all ≥ lo ≥ 0; the assumption restates a fact", "test_assume_nonneg_loop_iv"),
    Rule("assume-loop-iv-range", "rewrite",
         "assume bounded<a, b> on the induction variable of `for iv in (lo to hi, step s)` is the variable itself "
         "when a ≤ lo (lo constant, or a value at least a: the induction variable of an enclosing loop of positive "
         "constant step starting at a or more, a triangular loop's `for j in (i to n)`) and the last value lo + "
         "s·⌊(hi-1-lo)/s⌋ ≤ b (hi constant; hi - 1 when lo or s is not); a `?` side needs nothing",
         "a Tile IR loop's step is positive, so iv only takes the values lo, lo+s, ... < hi: the assumption restates "
         "a fact (cutile states it for loops with constant bounds, and the upper one for grid-stride loops up to a "
         "constant)", "test_assume_loop_iv_range"),
    Rule("block-id-unit-grid", "rewrite",
         "under the launch precondition that grid dimension k has extent 1, B's block id k equals the constant 0 "
         "in A (B only; the port records the precondition, the host side enforces it)",
         "block ids range over [0, grid extent); with extent 1 the only value is 0. A cuTile Python store at "
         "(row, 0) and a cutile block-owned store at (bid.x, bid.y) are then the same access",
         "test_block_id_unit_grid"),
    Rule("assume-fact-set", "rewrite",
         "a chain of `assume` ops on one value is that value with the *set* of facts the chain states (order and "
         "repetition do not matter)",
         "assume returns its operand unchanged and only records a predicate about it; cuTile Python states "
         "div_by<16> before and after bounded<0, ?>, cutile states it once after; the optimizer sees the same facts",
         "test_assume_fact_set"),
    Rule("join-tokens-trivial", "rewrite",
         "in a join_tokens, fresh tokens (make_token) are dropped when another token is left and repeats count once; "
         "a join of one token is that token",
         "a token only orders memory operations after the operations it depends on: a fresh token depends on "
         "nothing, a repeat adds no dependency, and joining one token adds none (cuTile Python joins its running "
         "token with every load's; cutile threads each tensor's own)", "test_join_tokens_trivial"),
    Rule("fresh-tokens-one", "rewrite",
         "every fresh token (`make_token`) is one value: the first one's",
         "a fresh token has no operands and depends on no operation, so two of them order exactly the same "
         "(nothing); cuTile Python starts every array from one entry token, cutile makes one per tensor — a loop "
         "carrying two arrays' tokens that one operation hands on is then one carried value on both sides "
         "(loop-carried-duplicates)", "test_fresh_tokens_one"),
    Rule("fresh-token-operand", "rewrite",
         "a memory operation whose token operand is a fresh token (make_token, also once joins are simplified) is "
         "that operation without a token operand",
         "a token only orders an operation after the operations the token depends on; a fresh token depends on "
         "none, as an absent one (cuTile Python loads a list's item descriptors with no token; cutile's view "
         "loads pass the view's token, fresh where nothing was stored)", "test_fresh_token_operand"),
    Rule("singleton-view-stride", "rewrite",
         "a tensor view's stride along an axis whose extent is the static 1 is not an operand of the view: any value "
         "there is the same view",
         "every element of the view has index 0 along that axis (loads pad and stores mask the elements outside its "
         "extent), so the stride multiplies only 0 and no address depends on it. cuTile Python 1.7 gives such a "
         "stride the constant 1 with a 16-byte `assume div_by` where the launch's stride is 1 "
         "(`_lower_tensor_view_extents`); cutile reads it from the entry's stride argument, also the launch's 1",
         "test_singleton_view_stride"),
    Rule("read-only-load-tokens", "rewrite",
         "a join_tokens drops the result token of a load from an array that no store, scatter or atomic in the "
         "kernel writes (the written arrays must all be traced to entry arguments; else nothing is dropped)",
         "ordering an operation after a load only matters if the loaded memory can change or the operation can "
         "change it; an array nothing in the kernel writes is read-only for the launch, and the runtime's ownership "
         "check refuses launches where a written array overlaps any other argument", "test_read_only_load_tokens"),
    Rule("data-implied-load-tokens", "rewrite",
         "a join_tokens drops the result token of a load when every memory operation ordered after the join "
         "(through joins and the store tokens that follow) reads the loaded tile, directly or through pure ops "
         "(or a loop's result whose initial value and every iteration's handed-on value do)",
         "an operation that consumes a loaded value cannot issue before that load has read memory, so the token "
         "adds no ordering the data does not already give (cuTile Python joins the load tokens of an array it then "
         "stores, an in-place update; cutile 0.3.1's view loads return no token to join)",
         "test_data_implied_load_tokens"),
    Rule("padded-pointer-load-select", "rewrite",
         "`select(m, t, f)` where `t` is the tile of a masked, unpadded `load_ptr_tko(p, m)` that nothing else reads "
         "is that load with padding `f`",
         "a masked pointer load leaves masked-off lanes undefined; selecting `f` on the same mask gives exactly the "
         "padded load's value in every lane (cutile 0.3.1 cannot pass a padding to a rank-2+ pointer load: it "
         "reshapes a scalar padding to rank 1 first)", "test_padded_pointer_load_select"),
    Rule("constant-conversion", "rewrite",
         "`ftof` of an f32 (or f64) constant to bf16/f16 is the constant of that type it rounds to (nearest even), "
         "when every value that tileirdisasm prints as that text rounds to the same value; to f8E4M3FN/f8E5M2, of +0 "
         "and the finite values the format holds exactly (1.5, 448, 2^-9, ..); `ftof` of a finite bf16/f16 constant to f32 is the f32 constant of its value (exact)",
         "the conversion of a constant is a constant; the text of an f32 has 7 significant digits, so the rule "
         "fires only when the whole interval of f32s it may stand for rounds alike; cutile 0.3.1 writes bf16's "
         "named constants other than ZERO wrongly (docs/toolchain.md), so the port spells them as a converted f32 "
         "constant; it cannot compile an 8-bit float constant at all (\"Unsupported constant type f8e5m2\"), so "
         "the port converts the f32 constant, which is exact where the format holds the value",
         "test_constant_conversion"),
    Rule("fpowi-const", "rewrite",
         "`fpowi(x, n)` of a constant n ≥ 2 is the products tileiras compiles it to, right-to-left square-and-"
         "multiply: squares `s1 = x * x`, `s(k+1) = sk * sk`, the result started at x's lowest set power and each "
         "later set power multiplied on as `mulf(s, result)` (`x ** 3` is `mulf(mulf(x, x), x)`, `x ** 4` "
         "`mulf(s1, s1)`); f16/bf16: `ftof` to f32, those products in f32, `ftof` back; of f64, n = 1 is x. "
         "Negative n, n = 0 and n = 1 of f32/f16/bf16 stay `fpowi` (a difference)",
         "tileiras 13.4 compiles fpowi of a constant exponent to exactly these FMULs/DMULs (nvdisasm of "
         "`x ** n` against the products, n = 2..9, 13, 16 (f32 also 31, 1000) of f32/f64, 2..5, 7 of f16/bf16: the same "
         "association, docs/corpus.md limits), plus a `* 1` that starts the result: exact (x * 1 = x for every "
         "non-NaN x, subnormals included: no flush) and, for n ≥ 2, every NaN result is the canonical NaN either "
         "way. cutile 0.3.1 cannot emit `fpowi`; a negative n is a reciprocal (rcp.rn) of the product, and "
         "n = 1 keeps `x * 1`, which tileiras folds away in a port's `x * 1.0`", "test_fpowi_const"),
    Rule("dead-pure-for", "canonicalization",
         "a `for` whose body is pure ops only (nested `for`s and `if`s of pure ops, the `yield`s and `continue`s "
         "that hand their values on; no `return`, `break`, `loop` or memory op) is a pure value: where nothing "
         "reads its results it is dead, as dead-pure-ops drops a pure op; where they are read it is compared by "
         "what it computes",
         "a `for` runs a bounded number of iterations, so with no effect inside it terminates and changes nothing "
         "but its results; cuTile Python's dead-code elimination drops such a loop when its results die (`acc` "
         "re-assigned after a loop that only computed it), where cutile keeps it",
         "test_dead_pure_for"),
    Rule("argmax-two-reductions", "rewrite",
         "cuTile Python's arg-max / arg-min (`ct.argmax`: one `reduce` of the values and int32 indices whose body "
         "is cuda.tile 1.7's comparison — the better value, NaN the worst, the lesser index between equal values) "
         "is two reductions: `best = reduce(x, maxf / minf / maxi / mini)` at the value's identity, then `reduce("
         "select(x == best or best is NaN, indices, 2147483647), mini)` (integers: x == best); only its index result is "
         "rewritten (irdiff/argmax.py)",
         "the body orders the pairs lexicographically (value, NaN below every number; then the lesser index), so "
         "the reduction is the least index among the positions holding the best value; a float max/min reduction "
         "ignores NaN, so `best` is that value, or NaN when no value is a number (then every position ties and "
         "the least index wins); `equal ordered` finds exactly the positions of `best` (±0 equal, as in the body). "
         "The reference's identity pair (-inf, 0) is no identity of its body for a -inf element past index 0: "
         "where tileiras combined it the reference could answer 0, the port the first -inf's index",
         "test_argmax_two_reductions"),
    Rule("cdiv-rounding", "rewrite",
         "divi (a + (b-1)), b signed  ≡  divi a, b signed rounding<positive_inf>, for constant b > 0 and a ≥ 0",
         "for a ≥ 0 and b > 0, ⌊(a+b-1)/b⌋ = ⌈a/b⌉ and truncation equals flooring; a ≥ 0 is proven from an "
         "assume bounded<0, ?>, a shape argument, a block id, or a non-negative constant", "test_cdiv_rounding"),
    Rule("single-trip-loop-iv", "rewrite",
         "the induction variable of `for iv in (lo to hi, step s)` with constants lo < hi ≤ lo + s is the constant "
         "lo wherever an integer rule reads it (fold-int-constants, bounds)",
         "the loop runs once, with iv = lo (cutile folds arithmetic on such an iv, `j * TILE` becoming 0, where "
         "cuTile Python keeps the multiply)", "test_single_trip_loop_iv"),
    Rule("if-passthrough-results", "rewrite",
         "a result of an `if` that every arm yields unchanged from one value defined before the `if` is that value, "
         "and the `if` no longer yields it (nor, with no result left, yields at all); an arm that ends in `continue` "
         "or `break` yields nothing and does not count",
         "both arms hand the same outer value through, so the result equals it on every path; cuTile Python yields "
         "only what an arm changes, cutile 0.3.1 yields every variable its enclosing loop carries (so that a "
         "`break`/`continue` in the arm could pass them on)", "test_if_passthrough_results"),
    Rule("unordered-load-value", "canonicalization",
         "a weak view load with no ordering token (`make_token`'s, dropped by fresh-token-operand) whose tile is read "
         "is a value like a pure op's: the same wherever it sits — in a loop body or before the loop (an unread "
         "one stays an effect, a difference)",
         "nothing orders it after any write, so it reads the array as the kernel received it (arrays the kernel "
         "writes are ordered by tokens in both programs); cuTile Python's code motion hoists such a loop-invariant "
         "load out of its loop, cutile leaves it where it is written", "test_unordered_load_value"),
    Rule("single-break-loop", "rewrite",
         "a `loop` whose body is pure ops ending in its one `break` (no other `break` or `continue`) is its body once: "
         "its carried values are their initial values, its results the break's operands (the loop is gone)",
         "the body runs exactly once, from the initial carried values, and hands the break's values out (cuTile "
         "Python compiles a helper's early `return` as such a loop — `loop iter_values(..) { ..; break %v }` once a "
         "constant `if` around the `return` is folded, carrying the helper's re-bound parameters; the port computes "
         "the same ops and yields the value directly)", "test_single_break_loop"),
    Rule("inbounds-hint", "rewrite",
         "a view load's or store's `inbounds = [..]` (ct.load/ct.store(.., check_bounds=False)) is dropped",
         "it tells tileiras the tile lies inside the array and is undefined otherwise; the load (store) without it "
         "reads (writes) the same tile wherever the claim holds, so on every launch where the reference is defined "
         "the two do the same (the port refines the reference: a tile past the edge is padding, or not written, "
         "instead of undefined; cutile 0.3.1 has no way to state the claim)", "test_inbounds_hint"),
    Rule("early-return-else", "rewrite",
         "in the entry's own region, `if %c { A; return } else { }` followed by ops R up to the entry's final "
         "`return` is `if %c { A } else { R }`; an `if` yielding results (`%t = if %c -> (token) { A; return } "
         "else { yield %x }`, the token of a store in A) gives R the else arm's values (%t is %x); with A and R "
         "both empty the `if` is dropped",
         "when c holds both run A and end the kernel without running R (so %t is never read); when it does not both run R and end: the same paths "
         "(cuTile Python returns from inside the `if` for `if pid >= n: return`; cutile 0.3.1 compiles `return` "
         "only at the end of a body, so the port puts the rest of the kernel in the `else` arm)",
         "test_early_return_else"),
    Rule("single-trip-loop-if", "rewrite",
         "a `loop` whose body is pure ops, one `if %c { A; break X } else { }`, then B and `break Y` (no other "
         "break or continue, its carried values unread) is `if %c -> (..) { A; yield X } else { B; yield Y }`",
         "the loop body runs once: either the `if` is taken and the loop ends with X after A, or it is not and "
         "the loop ends with Y after B, exactly the two paths of the `if` (cuTile Python compiles a helper's "
         "`return` under a runtime `if` as such a loop; the port writes the `if` yielding the result)",
         "test_single_trip_loop_if"),
    Rule("loop-carried-invariant", "rewrite",
         "a value a `for` carries whose only `continue` hands it on unchanged (its own block argument, once the join "
         "rules have simplified the body) is, inside the loop and after it, the value the loop started it from, and "
         "is dropped from the loop; the loop-carried rules then run again. A value a `loop` (a `while`) carries that "
         "every one of its `continue`s hands on unchanged (if-passthrough-results seeing through an `if` whose other "
         "arm breaks) is its initial value inside the loop (its results are the `break`s' operands)",
         "by induction the carried value equals its initial value on entry to every iteration and after the last "
         "(cuTile Python carries a loop's load tokens to order a later atomic after them; once read-only-load-tokens "
         "drops them from the body's joins each iteration hands its token on as it came; the second loop of a split "
         "loop carries the last-store token of an array only the first one stores)",
         "test_loop_carried_invariant"),
    Rule("loop-carried-unread", "rewrite",
         "a value a `loop` (a `while`) carries that its body does not read — only its own place in the `continue`s "
         "hands it on, or loop-carried-invariant forwarded it — is dropped from the carried values and from every "
         "`continue`; the loop's results (the `break`s' operands) stay",
         "a `loop` ends only by a `break`, whose operands are its results, so a carried value nothing in the body "
         "reads influences no value or effect: its initial value and what the `continue`s hand it are never "
         "observed (cuTile Python knows a variable assigned only before a `break` (`found = j; break`) is "
         "unchanged in the loop, hands the constant on and starts it from a placeholder; cutile carries it "
         "through the `if` around the `break`)", "test_loop_carried_unread"),
    Rule("loop-carried-dead", "rewrite",
         "a value a `for` carries that nothing reads — its body only hands it to its own `continue`, nothing reads "
         "the loop's result for it — is dropped from the loop",
         "no op's operand depends on it, so removing it changes no other value or effect (cuTile Python drops "
         "such carried values; cutile carries every variable the loop assigns, `token_cnt = ct.gather(..)` read "
         "only in the iteration that assigns it)", "test_loop_carried_dead"),
    Rule("loop-carried-duplicates", "rewrite",
         "two values a `for` carries that start from one value and are handed one value by the body's only "
         "`continue` are one value (its block argument and its result)",
         "by induction over the iterations they are equal on entry to every iteration and after the last; cuTile "
         "Python carries an array's last-write token twice (for its reads and its writes) where the port carries "
         "one", "test_loop_carried_duplicates"),
    Rule("loop-results-unread", "rewrite",
         "a `loop` (a `while`) result nothing reads: every `break` of the loop hands, at that place, the value the "
         "loop started it from (its initial operand) instead of what it handed",
         "a `break`'s operands are the loop's results and go nowhere else, so one at a place whose result no op "
         "reads influences no value or effect (cuTile Python breaks with fresh `make_token`s for the tokens of "
         "arrays nothing after the loop touches; the port hands the last operation's token)",
         "test_loop_results_unread"),
    Rule("loop-return-unobserved", "rewrite",
         "in a `for` whose body starts (pure ops aside) with the skip `if %g { continue <every carried value as it "
         "came> }`, a `continue` handing constant `true` to places g and f hands, at every other place whose loop "
         "result is read only inside the `else` arm of an `if` on the loop's result f, the carried value that came "
         "in instead of what it handed",
         "once that `continue` is taken every later iteration is skipped, handing everything on: the loop's result "
         "f is true and its results are what the `continue` handed; results read only where f is false are then "
         "never read, and the skipped iterations read the values only to hand them on. So whatever that "
         "`continue` hands at those places is unobserved (cuTile Python's for_loop_return hands a `return`'s "
         "`break` the values the iteration came with where nothing after the loop's `if flag: return` reads "
         "them; the port, compiling `flag = True; break`, hands the values just computed)",
         "test_loop_return_unobserved"),
    Rule("loop-carried-order", "canonicalization",
         "the values a `for` carries are put in one order: by type, then by the op that first reads each in the "
         "body (an identity reshape or broadcast, forwarded to its operand, is no reader: the op reading it is; nor "
         "is a `continue` of the loop handing the value on in its own place, a `break` flag's skip), then by the op "
         "that makes the value its last `continue` hands on, then (a first reader with effects, "
         "e.g. two tokens each first read by a store) by that reader's place among the body's ops of its name "
         "with effects, then by each value's place among its first reader's operands (ties keep their order)",
         "which position a carried value takes is a naming choice: the loop computes the same values whatever the "
         "order, its results renumbered alike, every `continue` of the loop permuted alike (cutile orders a loop's "
         "variables by name, cuTile Python by first assignment, tokens last); a loop with `continue`s nested in "
         "`if`s (and none of its own `break`s) is ordered so, the other loop-carried rules leaving it alone",
         "test_loop_carried_order"),
    Rule("if-results-order", "canonicalization",
         "an `if` whose results are each read once, all by the terminator of the region holding it (a loop body's "
         "`continue`) at distinct places, yields them in the order that terminator reads them (each arm's `yield` "
         "permuted alike)",
         "which position an `if` result takes is a naming choice: the arms compute the same values whatever the "
         "order, and the one reader takes each from where it is (cutile orders an `if`'s results by variable "
         "name, cuTile Python by first assignment: two arrays' atomics in an `if` inside a loop carry their tokens "
         "in the other order)", "test_if_results_order"),
    Rule("assume-divby-implied", "rewrite",
         "`assume div_by<k>` on an integer value that the program itself shows to be a multiple of k (constants, "
         "products, sums, widenings, reshapes, selects, other assumes, a loop's carried value whose start and every "
         "handed-on value are) is the value",
         "the assume states a fact the computation already implies, so it adds nothing an optimizer could not "
         "derive (cuTile Python's divisibility pass states such facts at loop arguments and at values it feeds to "
         "memory operations; cutile states none)", "test_assume_divby_implied"),
    Rule("fold-minmax-constants", "rewrite",
         "maxf/minf of two float constants of one dtype (scalars or splats) is the constant it picks — the larger / "
         "smaller printed value; not for zeros of opposite signs",
         "the ops are pure and return one of their operands; cutile 0.3.1 has no NaN constant, so with two "
         "non-NaN operands maxf/minf is the larger / smaller (Tile IR's default, no propagate_nan needed). cuTile "
         "Python folds ct.maximum/ct.minimum of constants (a helper's `ct.minimum(ct.maximum(w, 0.0), 1.0)` of a "
         "constant w under a constant `if`), cutile emits them; tileirdisasm's 7-digit text keeps the order of "
         "values, so distinct texts order as their values do", "test_fold_minmax_constants"),
    Rule("if-constant-condition", "rewrite",
         "an `if` whose condition is a constant — as written, or as fold-int-constants folds it (`cmpi equal` of two "
         "constants) — is the arm it takes: that arm's ops in place of the `if`, the `if`'s results the values the "
         "arm yields; not when the arm taken leaves by `break`, `continue` or `return`",
         "the other arm never runs and the `if` adds no effect of its own; cuTile Python keeps an `if` on a value it "
         "learns only when the IR materializes it (`1.0 if s1 == 1 else 0.0` of a stride known at the launch, "
         "`s0, s1 = x.strides`), which cutile's compiler folds away", "test_if_constant_condition"),
    Rule("fold-int-constants", "rewrite",
         "exti of an integer constant, itof of one the float type holds exactly (|c| ≤ 2^24 for f32, 2^53 for "
         "f64; unsigned only when c ≥ 0), and addi/subi/muli/divi/remi/maxi/mini (signed), shli, andi/ori/xori of "
         "two (of i1 conditions too), and a signed cmpi of two, is the constant it computes (divi with "
         "its rounding: toward zero by default, negative_inf flooring, positive_inf ceiling; remi the remainder "
         "with the dividend's sign); a select on a constant condition is the operand it selects; not when the "
         "result leaves the type's signed range, nor for unsigned ops, a division by zero or a shift by a negative "
         "amount or by the width or more",
         "the ops are pure functions of their operands; cuTile Python folds arithmetic on constants (`(N + T - 1) // "
         "T` of two ct.Constant ints is a constant, `(1 << bits) - 1` of a helper's default, `N % G` of two "
         "constexprs (Python's floored remainder: remi, then a sign test and select, on cutile's const generics), "
         "`t * fib(N)` of a "
         "recursive helper on a constant is the f32 constant), cutile leaves the same arithmetic on const "
         "generics to the backend", "test_fold_int_constants"),
)

RULES_BY_ID = {r.id: r for r in RULES}


def rules_markdown() -> str:
    """docs/irdiff-rules.md, generated from :data:`RULES` (tests check the committed file is current)."""
    from ..mdtable import render

    return render("irdiff: the equivalences it accepts",
                  "src/tileport/irdiff/rules.py` by `python -m tileport.irdiff.rules > docs/irdiff-rules.md",
                  "Everything not listed here is reported as a difference.",
                  ["rule", "kind", "what", "why it preserves meaning", "pinned by"],
                  [[f"`{r.id}`", r.kind, r.summary, r.why, f"`tests/test_irdiff_rules.py::{r.test}`"] for r in RULES],
                  [f"Pure ops (dead when unused, equal when identical): {', '.join(sorted(PURE_OPS))}.", "",
                   f"Terminators (always roots of their region): {', '.join(sorted(TERMINATORS))}."])


if __name__ == "__main__":
    print(rules_markdown(), end="")
