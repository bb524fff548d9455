"""Corpora of other people's kernels (``../shared/corpus``): capture the launches their own tests make.

``tileport corpus capture DIR --out OUT`` runs DIR's tests with pytest in-process on a machine with torch and no
GPU (``capture``): ``ct.launch`` records and runs nothing, torch's CUDA device is answered as a target GPU
(``cudaemu``), autotuners take their first config (``autotune``), and the ``@ct.kernel`` functions of DIR are found
by reading the sources (``scan``) so that kernels no test launched can be listed.

Output (OUT is replaced on each run):

``OUT/<file>.<kernel>.json`` — one per launched kernel, ``<file>`` being the kernel's source file relative to DIR
with ``/`` as ``.`` and no ``.py`` (``src.tilegym.ops.cutile.rms_norm._rms_norm_kernel_gather.json``). The format
is exactly what ``tileport capture`` writes (``frontends.cutile_py.capture.write_capture``; schema
``spec/capture.schema.json``), so ``tileport analyze|port FILE.py::KERNEL --capture`` reads it:

* ``format`` 1; ``script``: DIR; ``argv``: the test files (relative to DIR) that launched the kernel;
* ``launches``: one entry per kept (signature, grid) — ``kernel`` (``SOURCE::NAME``, SOURCE the absolute path the
  kernel was imported from), ``qualname``, ``source``, ``line``, ``grid`` (3 ints), ``signature`` (the ``--sig``
  grammar, with the divisibility / alignment facts ``ct.launch`` specializes on), ``args`` (each argument's kind,
  dtype, shape, strides, constant or scalar value), ``count`` (launches seen with this signature and grid; a
  signature's launches beyond its kept grids are counted on its first entry); and three keys of this command's own:
  ``corpus_file`` (the source relative to DIR, for when the corpus lives elsewhere), ``tests`` (up to 3 test ids that
  made it) and, when the first such launch came from an autotuner's search, ``autotune`` (how many configs it had and
  which one was taken);
* ``errors``: empty (launches that could not be recorded are listed in index.json).

Per kernel, distinct signatures are deduplicated and at most ``--max-signatures`` (12) kept, chosen greedily to cover
every parameter's dtype and every constant's value first, then every dtype + constant combination, then the rest in
the order they were first seen; each kept signature keeps up to 3 launches with distinct grids (the grid formula
is derived from them).

``OUT/index.json`` — ``assumptions`` (the target GPU and what was answered; also printed), ``target``, ``options``,
``summary`` (kernels found / launched / not launched, signature counts), ``kernels`` (per launched kernel: ``file``
relative to DIR, ``kernel``, ``qualname``, ``line``, ``launches``, ``distinct_signatures``, ``kept_signatures``,
``capture`` (its file name in OUT), ``tests`` (test files), ``autotuned`` (the first search: ``configs``, ``taken``)),
``not_launched`` (every scanned kernel no test launched), ``notes``, ``refused_allocations``,
``unrecorded_launches`` (launches whose arguments the capture format cannot express, e.g. a tuple argument, with
counts), ``rejected_launches`` (launches the launch itself refuses — ct.launch's or Triton's TypeError, raised in the
test as on a GPU — with counts) and ``test_files`` (per file: tests run, deselected with why, outcomes, failures
grouped by reason, launches, of them ``rejected`` and ``unrecorded``, seconds, and an ``error`` when pytest could not
run it).
"""
