"""Source-language frontends: cuTile Python (``cutile_py``) now, Triton later."""
