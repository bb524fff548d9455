"""Serving ported kernels: the C ABI shared by Rust and Python, the cdylib build, and the launch path."""
