#!/usr/bin/env bash
# Makes PACK (default build/gpu21) for scripts/gpu_triton.sh and scripts/gpu_triton_probe.sh, on the CPU: ports the
# committed Triton captures (`tileport corpus port`, into build/ttp and build/tcp unless SKIP_PORT=1 reuses them),
# then packs triton-tutorials.tar.xz and TileGym.tar.xz (copies of the corpus), ports.tar.xz (ttp/ and tcp/: each
# kernel's lowered.py, lowered.json and spec.json (the shadow skips launches at dtypes none of its variants has), and
# corpus.json) and probe.tar.xz (benchmarks/corpus/triton_probe_variants.py
# on build/ttp). CORPUS: the corpus folder (default ../shared/corpus, or /work/shared/corpus from a worktree). HINTS:
# the tutorials' hints file (default benchmarks/corpus/triton_hints.json), TILEGYM_HINTS TileGym's (default
# benchmarks/corpus/triton_hints_tilegym.json); TILEGYM_VARIANT: a hints file for
# TileGym's Triton kernels, ported again into tcpv/ (scripts/gpu_triton.sh shadows them a second time);
# TUTORIAL_VARIANT: the same for the tutorials' kernels (ttpv/, shadowed in that second run too).
set -euo pipefail
pack=${PACK:-build/gpu21}
corpus=${CORPUS:-../shared/corpus}
py=${PYTHON:-.venv/bin/python}
hints=${HINTS:-benchmarks/corpus/triton_hints.json}   # the options a GPU probe chose per tutorial kernel
tilegym_hints=${TILEGYM_HINTS:-benchmarks/corpus/triton_hints_tilegym.json}   # and per TileGym Triton kernel
export PYTHONPATH="$PWD/src"
mkdir -p "$pack"
pack=$(cd "$pack" && pwd)
if [ "${SKIP_PORT:-0}" != 1 ]; then
  rm -rf build/ttp build/tcp
  "$py" -m tileport corpus port benchmarks/results/corpus/triton/captures-tutorials --corpus "$corpus/triton-tutorials" \
    --hints "$hints" --out build/ttp --results build/ttp.json \
    || echo "(exit $?: not every tutorial kernel is proven: build/ttp.json)"
  "$py" -m tileport corpus port benchmarks/results/corpus/triton/captures-tilegym --corpus "$corpus/TileGym" \
    --hints "$tilegym_hints" --out build/tcp --results build/tcp.json \
    || echo "(exit $?: not every TileGym kernel is proven: build/tcp.json)"
fi
rm -rf build/tcpv build/ttpv
if [ -n "${TUTORIAL_VARIANT:-}" ]; then   # the tutorials' kernels again under other hints, for the second shadow
  "$py" -m tileport corpus port benchmarks/results/corpus/triton/captures-tutorials --corpus "$corpus/triton-tutorials" \
    --hints "$TUTORIAL_VARIANT" --out build/ttpv --results build/ttpv.json || echo "(exit $?: build/ttpv.json)"
fi
if [ -n "${TILEGYM_VARIANT:-}" ]; then   # TileGym's Triton kernels again under other hints: a second shadow times them
  "$py" -m tileport corpus port benchmarks/results/corpus/triton/captures-tilegym --corpus "$corpus/TileGym" \
    --hints "$TILEGYM_VARIANT" --out build/tcpv --results build/tcpv.json || echo "(exit $?: build/tcpv.json)"
fi
tar cJf "$pack/triton-tutorials.tar.xz" -C "$corpus" triton-tutorials
tar cJf "$pack/TileGym.tar.xz" -C "$corpus" TileGym
(cd build && find ttp tcp $(for v in tcpv ttpv; do [ -d $v ] && echo $v; done) -maxdepth 2 \( -name lowered.py -o -name lowered.json -o -name spec.json -o -name corpus.json \) -print \
  | sort | tar cJf "$pack/ports.tar.xz" -T -)
rm -rf build/probe && "$py" benchmarks/corpus/triton_probe_variants.py --ports build/ttp --out build/probe
tar cJf "$pack/probe.tar.xz" -C build/probe .
ls -l "$pack"
