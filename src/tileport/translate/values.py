"""The Rust value types the translator gives an expression (a tile of a dtype and shape, a scalar) and the dtype
tables they are written with; shared by emit.py and the modules it delegates to (slices.py)."""
from __future__ import annotations

from dataclasses import dataclass

RUST_DTYPES = {"f32": "f32", "f16": "f16", "bf16": "bf16", "f64": "f64", "tf32": "tf32", "i8": "i8", "i16": "i16", "i32": "i32",
               "i64": "i64", "u8": "u8", "u16": "u16", "u32": "u32", "u64": "u64", "bool": "bool",
               "f8e4m3fn": "f8e4m3fn", "f8e5m2": "f8e5m2", "f8e8m0fnu": "f8e8m0fnu", "f4e2m1fn": "f4e2m1fn"}

#: bytes per element of each dtype
ELEMENT_BYTES = {"bool": 1, "i8": 1, "u8": 1, "i16": 2, "u16": 2, "f16": 2, "bf16": 2, "i32": 4, "u32": 4, "f32": 4,
                 "tf32": 4, "i64": 8, "u64": 8, "f64": 8, "f8e4m3fn": 1, "f8e5m2": 1, "f8e8m0fnu": 1}


@dataclass(frozen=True)
class Tile:
    dtype: str
    shape: tuple[str, ...]

    def rust(self) -> str:
        return f"Tile<{RUST_DTYPES[self.dtype]}, {{ [{', '.join(self.shape)}] }}>"


@dataclass(frozen=True)
class Scalar:
    dtype: str

    def rust(self) -> str:
        return RUST_DTYPES[self.dtype]
