"""Port directories: names derived from kernel symbols stay within file-name limits."""
from tileport.frontends.cutile_py.analyze import analyze
from tileport.frontends.cutile_py.loader import load_kernel
from tileport.paths import NAME_LIMIT, bounded_name
from tileport.spec.signature import bind, parse

#: arrays of the wide kernel: cuda-tile mangles each into its symbol (369 characters at 30)
WIDE = 30


def write_wide_kernel(tmp_path):
    """A kernel with WIDE array parameters (the sum of WIDE - 1 of them stored into the last); (ref, signature)."""
    names = [f"a{i}" for i in range(WIDE - 1)]
    loads = "".join(f"    t = t + ct.load({n}, index=(ct.bid(0),), shape=(B,), padding_mode=ct.PaddingMode.ZERO)\n"
                    for n in names[1:])
    src = tmp_path / "wide.py"
    src.write_text("import cuda.tile as ct\n\n\n@ct.kernel\n"
                   f"def wide({', '.join(names)}, out, B: ct.Constant[int]):\n"
                   "    t = ct.load(a0, index=(ct.bid(0),), shape=(B,), padding_mode=ct.PaddingMode.ZERO)\n"
                   f"{loads}    ct.store(out, index=(ct.bid(0),), tile=t)\n")
    return f"{src}::wide", ", ".join(f"{n}=f32[?]/1" for n in names + ["out"]) + ", B=#128"


def test_bounded_name_keeps_short_names_and_shortens_long_ones():
    short = "vector_add_Kt1_A1f32_1t1_A1f32_1t1_A1f32_1t1_I1024"
    assert bounded_name(short) == short
    assert bounded_name("x" * NAME_LIMIT) == "x" * NAME_LIMIT
    long_a, long_b = "k_" + "A1f32_1t1_" * 40 + "I1", "k_" + "A1f32_1t1_" * 40 + "I2"
    a, b = bounded_name(long_a), bounded_name(long_b)
    assert len(a) == len(b) == NAME_LIMIT and a != b and a.startswith("k_A1f32_1t1_")
    assert bounded_name(long_a) == a  # deterministic


def test_a_kernel_with_30_arrays_is_analyzed(tree, tmp_path):
    """cuda-tile's symbol for 30 arrays is longer than a file name may be (it crashed analyze with `OSError: File
    name too long`); the variant directory is named by a bounded form of it, spec.json keeps the symbol."""
    ref, sig = write_wide_kernel(tmp_path)
    kernel = load_kernel(ref)
    spec = analyze(kernel, [bind(parse(sig), kernel.param_names, kernel.name)], [], tree, tmp_path / "a")
    (v,) = spec["variants"]
    assert len(v["symbol"]) > 255
    vdir = (tmp_path / "a" / v["ir"]["bytecode"]).parent
    assert vdir.name == bounded_name(v["symbol"]) and len(vdir.name) <= NAME_LIMIT
    assert f"entry @{v['symbol']}(" in (tmp_path / "a" / v["ir"]["disasm"]).read_text()
