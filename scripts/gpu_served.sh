#!/usr/bin/env bash
# On the GPU host: TileGym's own code through the launch backend (issue 20), plain cuTile Python beside it.
#
# Carried from the dev machine: .bundle/toolchain.tar.xz (`tileport toolchain pack ... --no-probe --no-disasm`; or
# none, right after a call that carried it: scripts/gpu_host.sh) and PACK
# (default build/gpu20/pack) with served.tar.xz (`tileport ops build --from build/corpus --corpus TILEGYM --into
# LIB && tileport ops pack PACK/served.tar.xz --library LIB`) and a copy of the TileGym checkout (PACK/TileGym, or
# PACK/TileGym.tar.xz).
# Writes to $OUT: host.txt, graphs.log (tests/gpu/test_served_gpu.py, overhead, recurrent probe), overhead.json,
# recurrent_probe.json, tests.json (with per-kernel Rust/Python kernel times), tests.log, rust-logs.txt.
# TEST_FILES (default: every tests/ops file) picks TileGym test files, KEYWORD their tests (default "test_op and
# cutile"; "test_perf and cutile": the benchmarks), MODES the runs (default "plain,rust"; "rust" alone for timing:
# the Rust run times both paths itself, TILEPORT_LAUNCH_TIMING_PER_KERNEL launches per kernel); TEST_TIMEOUT bounds
# the test step (each test process is stopped 20 s before it, so one cut short still leaves its row and output
# tail); SHARDS splits each file's tests over that many processes per mode (JOBS of them run at once); EXTRAS
# (default "graphs overhead probe") picks the steps before the tests.
set -uo pipefail
out=${OUT:-gpu-served}
pack=${PACK:-build/gpu20/pack}
# shellcheck source=scripts/gpu_host.sh
source "$(dirname "$0")/gpu_host.sh"
eval "$(python3 -m tileport ops unpack "$pack/served.tar.xz" /tmp/served)"
TILEPORT_CORPUS=$(corpus_dir TileGym) || exit 3
export TILEPORT_SERVED TILEPORT_CORPUS
echo "TILEPORT_SERVED=$TILEPORT_SERVED" >> "$out/host.txt"

extras=${EXTRAS-graphs overhead probe}   # EXTRAS="" (or SKIP_EXTRAS=1): TileGym's tests only
[ "${SKIP_EXTRAS:-0}" = 1 ] && extras=""
case " $extras " in *" graphs "*)
  python3 -m pytest -q -rA -p no:cacheprovider tests/gpu/test_served_gpu.py > "$out/graphs.log" 2>&1
  echo "exit: $?" >> "$out/graphs.log" ;; esac
case " $extras " in *" overhead "*)
  python3 benchmarks/corpus/tilegym_rust.py overhead --corpus "$TILEPORT_CORPUS" --library "$TILEPORT_SERVED" \
    --out "$out" >> "$out/graphs.log" 2>&1 ;; esac
case " $extras " in *" probe "*)
  python3 benchmarks/probes/served_recurrent_probe.py "$TILEPORT_CORPUS" "$out/recurrent_probe.json" \
    >> "$out/graphs.log" 2>&1 ;; esac
case "${KEYWORD:-}" in *test_perf*) perf_loop_once ;; esac
# shellcheck disable=SC2086
timeout "${TEST_TIMEOUT:-400}" python3 benchmarks/corpus/tilegym_rust.py tests --corpus "$TILEPORT_CORPUS" \
  --library "$TILEPORT_SERVED" --out /tmp/tests --jobs "${JOBS:-12}" --shards "${SHARDS:-1}" --timing \
  --timeout "$(( ${TEST_TIMEOUT:-400} - 20 ))" --keyword "${KEYWORD:-test_op and cutile}" \
  --modes "${MODES:-plain,rust}" ${TEST_FILES:-} > "$out/tests.log" 2>&1
echo "exit: $?" >> "$out/tests.log"
cp /tmp/tests/tests.json "$out/" 2>/dev/null
tail -c 200000 /tmp/tests/*.rust.log > "$out/rust-logs.txt" 2>/dev/null
true
