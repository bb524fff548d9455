"""The cuTile Python frontend: load ``@ct.kernel`` functions and compile them with the real cuda-tile compiler."""
