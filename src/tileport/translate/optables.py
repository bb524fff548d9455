"""The cuda.tile math functions the emitter translates, and how: shared by the emitter and the coverage table."""

#: ct.<name>(x, y, rounding_mode=, flush_to_zero=) → the cutile op taking explicit rounding and ftz markers
BINARY_MATH = {"add": "addf", "sub": "subf", "mul": "mulf", "truediv": "divf"}
#: unary math: (cutile fn, takes rounding, takes ftz)
UNARY_MATH = {"sqrt": ("sqrt", True, True), "rsqrt": ("rsqrt", False, True), "exp2": ("exp2", False, True),
              "tanh": ("tanh", False, False), "log": ("log", False, False), "sin": ("sin", False, False),
              "cos": ("cos", False, False), "floor": ("floor", False, False), "ceil": ("ceil", False, False),
              "abs": ("absf", False, False), "log2": ("log2", False, False), "tan": ("tan", False, False),
              "sinh": ("sinh", False, False), "cosh": ("cosh", False, False)}
#: two-operand float math without rounding options: ct.<name>(x, y) → cutile fn
PLAIN_BINARY_MATH = {"pow": "pow", "atan2": "atan2"}
#: ct functions without side effects (an assignment of their result that nobody reads can be dropped)
PURE_CT_CALLS = frozenset({"load", "astype", "exp", "maximum", "minimum", "reshape", "full", "zeros", "ones",
                           "expand_dims", "sum", "max",
                           "min", "prod", "bid", "num_blocks", "num_tiles", "mma", "where", "arange", "cdiv",
                           "permute", "transpose", "cumsum", "gather"}) | set(BINARY_MATH) | set(UNARY_MATH) | \
    set(PLAIN_BINARY_MATH)
