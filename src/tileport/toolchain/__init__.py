"""The CUDA 13.4 / cuTile toolchain: where it is, how to run it safely, whether it is healthy, how to ship it."""
