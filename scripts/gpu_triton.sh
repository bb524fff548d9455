#!/usr/bin/env bash
# On the GPU host: the Triton side (issue 21) — the Triton GPU tests of tileport's own lowerings, then the Triton
# corpus's own host code (Triton's tutorials as scripts, TileGym's Triton tests) with every ported kernel shadowed by
# its port (outputs compared with Triton's, both timed in CUDA graphs: benchmarks/corpus/triton_shadow.py).
#
# Carried: .bundle/toolchain.tar.xz (or none right after a call that carried it: scripts/gpu_host.sh) and PACK
# (default build/gpu21) holding triton-tutorials.tar.xz and TileGym.tar.xz (copies of ../shared/corpus/*), and ttp/
# and tcp/ (or both in ports.tar.xz: the lowered.py, lowered.json, spec.json and corpus.json of `tileport corpus port` on the tutorials' and TileGym's
# Triton captures: benchmarks/results/corpus/triton.json has the commands).
# Writes to $OUT: host.txt, triton-tests.log, triton_shadow.json, triton_shadow.txt, host-output.log (its tail), and
# where the pack has tcpv/ (TileGym's Triton kernels under other hints; ttpv/ the tutorials') triton_shadow_variant.json
# / .txt: a second shadow of the same host code with those ports (VARIANT_TESTS: its TileGym test files).
# SHADOW_TIMEOUT bounds the shadow step (default 330 s), MAX_CHECKS the launches checked per kernel (default 3),
# TILEGYM_TESTS (space-separated, e.g. "tests/ops/test_layer_norm_legacy.py") the TileGym test files it runs, CALLS
# the tutorials' host calls run after their scripts (default benchmarks/corpus/triton_shadow_calls.json).
set -uo pipefail
out=${OUT:-gpu-triton}
pack=${PACK:-build/gpu21}
# shellcheck source=scripts/gpu_host.sh
source "$(dirname "$0")/gpu_host.sh"
tutorials=$(corpus_dir triton-tutorials) || exit 3
tilegym=$(corpus_dir TileGym) || exit 3
ports="$pack"
if [ -f "$pack/ports.tar.xz" ]; then   # ttp/ and tcp/ packed (their JSON is most of their size)
  rm -rf .devcache/ports && mkdir -p .devcache/ports && tar xJf "$pack/ports.tar.xz" -C .devcache/ports
  ports=.devcache/ports
fi

# A step whose *_TIMEOUT is 0 is skipped (a second call can run the variant shadow alone).
if [ "${TESTS_TIMEOUT:-200}" -gt 0 ]; then
  TILEPORT_CORPUS=$(dirname "$tutorials") timeout "${TESTS_TIMEOUT:-200}" python3 -m pytest -q -rA \
    -p no:cacheprovider tests/gpu/test_shadow_gpu.py tests/gpu/test_triton_idioms_gpu.py \
    tests/gpu/test_triton_tutorial_idioms_gpu.py tests/gpu/test_triton_tutorial_attention_gpu.py \
    > "$out/triton-tests.log" 2>&1
  echo "exit: $?" >> "$out/triton-tests.log"
fi

if [ "${SHADOW_TIMEOUT:-330}" -gt 0 ]; then
  timeout "${SHADOW_TIMEOUT:-330}" python3 benchmarks/corpus/triton_shadow.py --tutorials "$tutorials" \
    --tutorial-ports "$ports/ttp" --tilegym "$tilegym" --tilegym-ports "$ports/tcp" --max-checks "${MAX_CHECKS:-3}" \
    ${TILEGYM_TESTS:+--tilegym-tests $TILEGYM_TESTS} --calls "${CALLS:-benchmarks/corpus/triton_shadow_calls.json}" \
    --out "$out/triton_shadow.json" --log /tmp/host-output.log --hang-dump "$(( ${SHADOW_TIMEOUT:-330} - 15 ))" \
    > "$out/triton_shadow.txt" 2>&1
  echo "exit: $?" >> "$out/triton_shadow.txt"
  tail -c 150000 /tmp/host-output.log > "$out/host-output.log" 2>/dev/null
fi
if [ -d "$ports/tcpv" ] && [ "${VARIANT_TIMEOUT:-240}" -gt 0 ]; then   # the kernels under a hints variant
  tutorial_variant=(--skip-tutorials)
  [ -d "$ports/ttpv" ] && tutorial_variant=(--calls "${CALLS:-benchmarks/corpus/triton_shadow_calls.json}")
  # shellcheck disable=SC2086
  timeout "${VARIANT_TIMEOUT:-240}" python3 benchmarks/corpus/triton_shadow.py --tutorials "$tutorials" \
    --tutorial-ports "$ports/$([ -d "$ports/ttpv" ] && echo ttpv || echo ttp)" "${tutorial_variant[@]}" \
    --tilegym "$tilegym" --tilegym-ports "$ports/tcpv" \
    --tilegym-tests ${VARIANT_TESTS:-tests/ops/test_rms_norm.py tests/ops/test_layer_norm_legacy.py} \
    --max-checks "${MAX_CHECKS:-3}" --out "$out/triton_shadow_variant.json" \
    --hang-dump "$(( ${VARIANT_TIMEOUT:-240} - 15 ))" > "$out/triton_shadow_variant.txt" 2>&1
  echo "exit: $?" >> "$out/triton_shadow_variant.txt"
fi
# FP8_TIMEOUT > 0: tutorial 06 run again with its PV product written `acc = acc + tl.dot(p, v)` (the form the port's
# Tile IR compiles to for fp8: tileiras computes the product from a zero C and adds it; Triton feeds acc as the MMA's
# C), edited on the fly in a scratch copy (the corpus is not changed), shadowed by the same port: if the fp8 outputs
# then agree, the 9-11 e5m2 values apart in the plain shadow are the MMA's accumulation, not the port.
if [ "${FP8_TIMEOUT:-0}" -gt 0 ]; then
  probe=/tmp/tutorials-acc && rm -rf "$probe" && mkdir -p "$probe"
  sed 's/acc = tl\.dot(p, v, acc)/acc = acc + tl.dot(p, v)/' "$tutorials/06-fused-attention.py" \
    > "$probe/06-fused-attention.py"
  echo "lines edited: $(grep -c 'acc = acc + tl.dot(p, v)' "$probe/06-fused-attention.py")" > "$out/fp8_probe.txt"
  timeout "$FP8_TIMEOUT" python3 benchmarks/corpus/triton_shadow.py --tutorials "$probe" \
    --tutorial-ports "$ports/ttp" --max-checks "${MAX_CHECKS:-3}" --out "$out/fp8_probe.json" \
    --hang-dump "$(( FP8_TIMEOUT - 10 ))" >> "$out/fp8_probe.txt" 2>&1
  echo "exit: $?" >> "$out/fp8_probe.txt"
fi
# SCAN_CASES (space-separated cases of benchmarks/probes/scan_fault_probe.py, e.g. "prefix:1 prefix:2"): the scan
# fault's probe, each case in its own process, bounded by SCAN_TIMEOUT (default 120 s).
if [ -n "${SCAN_CASES:-}" ]; then
  # shellcheck disable=SC2086
  timeout "${SCAN_TIMEOUT:-120}" python3 benchmarks/probes/scan_fault_probe.py $SCAN_CASES > "$out/scan_probe.txt" 2>&1
  echo "exit: $?" >> "$out/scan_probe.txt"
fi
true
