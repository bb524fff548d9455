"""Example cuTile Python kernels and host programs (the demo's capture scripts, translator showcases): proven by the
tests, not served. The kernels the library serves are in tileport.kernels."""
from pathlib import Path

EXAMPLES_DIR = Path(__file__).parent

#: Examples proven too (tests/test_port.py ports them with the served kernels) that the op library does not serve.
ALSO_PROVEN = ("gather_rows", "numerics", "causal_tiles", "idioms", "real_idioms", "real_idioms2", "real_atomics",
               "real_idioms3", "real_ln_bwd", "real_syntax",
               "real_bmm", "real_idioms4", "real_idioms5", "real_idioms6", "real_views",
               "real_quant", "real_online_lse", "real_rolling_state", "real_ordering", "real_varlen", "real_inplace",
               "real_stores", "real_while_atomics", "real_lists", "real_carried_facts", "real_spin_lock",
               "real_powers", "real_argmax")

#: Examples the translator does not prove (yet), each with what stops it (tests check these outcomes too).
NOT_PROVEN: dict[str, str] = {}
