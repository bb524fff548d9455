#!/usr/bin/env bash
# On the GPU host: the library's own ops (tileport.ops) through both backends — their GPU tests, then `tileport bench`
# against every PyTorch path a user would pick (issue 20, criterion 5).
#
# Carried: .bundle/toolchain.tar.xz (or none right after a call that carried it: scripts/gpu_host.sh) and PACK
# (default build/gpu-ops) holding tileport-ops.tar.xz (`tileport ops pack build/gpu-ops/tileport-ops.tar.xz`).
# Writes to $OUT: host.txt, ops-tests.log, bench.json, bench.png, bench.log.
# OPS_TESTS=0 skips the tests (OPS_TEST_FILES: which GPU test files, default tests/gpu/test_ops_gpu.py); BENCH_OPS (default: every op) and BENCH_CASES (default mid,large) pick the bench;
# TESTS_TIMEOUT and BENCH_TIMEOUT bound the steps (defaults 240 s and 300 s); PROBES="token_gather" then times
# token_gather's launch paths (benchmarks/probes/token_gather_paths.py; BENCH_TIMEOUT=1 skips the bench);
# PROBES="token_gather_ncu" runs that probe once more, briefly, under Nsight Compute (launch statistics and occupancy
# of every kernel it launches: grid, block, registers, shared memory of the cubin each path really launches).
set -uo pipefail
out=${OUT:-gpu-ops}
pack=${PACK:-build/gpu-ops}
# shellcheck source=scripts/gpu_host.sh
source "$(dirname "$0")/gpu_host.sh"
eval "$(python3 -m tileport ops unpack "$pack/tileport-ops.tar.xz" /tmp/lib)" || exit 1
export TILEPORT_LIBRARY TILEPORT_AUTOBUILD

if [ "${OPS_TESTS:-1}" = 1 ]; then
  # shellcheck disable=SC2086
  timeout "${TESTS_TIMEOUT:-240}" python3 -m pytest -q -rfE -p no:cacheprovider -n 8 ${OPS_TEST_FILES:-tests/gpu/test_ops_gpu.py} \
    > "$out/ops-tests.log" 2>&1
  echo "exit: $?" >> "$out/ops-tests.log"
fi
ops=()
[ -n "${BENCH_OPS:-}" ] && ops=(--ops "$BENCH_OPS")
timeout "${BENCH_TIMEOUT:-300}" python3 -m tileport.bench.runner --out /tmp/bench "${ops[@]}" \
  --cases "${BENCH_CASES:-mid,large}" > "$out/bench.log" 2>&1
echo "exit: $?" >> "$out/bench.log"
cp /tmp/bench/bench.json /tmp/bench/bench.png "$out/" 2>/dev/null
case " ${PROBES:-} " in *" token_gather "*)   # PROBES="token_gather": benchmarks/probes/token_gather_paths.py
  timeout "${PROBE_TIMEOUT:-120}" python3 benchmarks/probes/token_gather_paths.py --out "$out/token_gather_paths.json" \
    > "$out/token_gather_paths.log" 2>&1 ;; esac
case " ${PROBES:-} " in *" token_gather_ncu "*)
  timeout "${PROBE_TIMEOUT:-120}" ncu --clock-control none --section LaunchStats --section Occupancy \
    --launch-count "${NCU_LAUNCHES:-80}" python3 benchmarks/probes/token_gather_paths.py --out /tmp/tg_ncu.json \
    --cases mid --reps 5 --rounds 1 > "$out/token_gather_ncu.log" 2>&1
  echo "exit: $?" >> "$out/token_gather_ncu.log" ;; esac
true
