#!/usr/bin/env bash
# On the GPU host: `tileport corpus capture --on-gpu` of TileGym's tests (the launches the GPU really makes, its
# autotuners' winners included), one capture folder per test file so a file cut short by its time limit costs only
# itself; then the live-capture GPU test. Port the captures on the dev machine (`tileport corpus port`).
#
# Carried: .bundle/toolchain.tar.xz and PACK (default build/gpu20/pack) holding a copy of TileGym (PACK/TileGym).
# CAPTURES="KEYWORD:FILE ..." (pytest -k expression and test file under tests/ops; "perf:" is short for
# "test_perf and cutile", "op:" for "test_op and cutile"); FILE_TIMEOUT bounds each file (default 240 s).
# Writes to $OUT: host.txt, capture-<file>/ (index.json + one capture per kernel), capture.log, live-test.log.
set -uo pipefail
out=${OUT:-gpu-live}
pack=${PACK:-build/gpu20/pack}
# shellcheck source=scripts/gpu_host.sh
source "$(dirname "$0")/gpu_host.sh"
corpus=$(corpus_dir TileGym) || exit 3

python3 -m pytest -q -rA -p no:cacheprovider tests/gpu/test_live_capture_gpu.py > "$out/live-test.log" 2>&1
echo "exit: $?" >> "$out/live-test.log"

for item in ${CAPTURES:-op:experimental/test_mhc.py}; do
  kw=${item%%:*}; file=${item#*:}
  perf=""
  case $kw in perf) kw="test_perf and cutile"; perf="--perf"; perf_loop_once ;; op) kw="test_op and cutile" ;; esac
  name=$(echo "$file" | tr '/' '.' | sed 's/\.py$//')
  echo "== $file (-k \"$kw\")" >> "$out/capture.log"
  # SIGINT at the limit: pytest stops the running test and the capture still writes what it recorded
  # shellcheck disable=SC2086
  timeout -s INT -k 30 "${FILE_TIMEOUT:-240}" python3 -m tileport corpus capture "$corpus" --on-gpu $perf \
    --tests "tests/ops/$file" -k "$kw" --max-signatures 1000 --out "$out/capture-$name" >> "$out/capture.log" 2>&1
  echo "exit: $?" >> "$out/capture.log"
done
true
