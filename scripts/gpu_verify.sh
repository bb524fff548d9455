#!/usr/bin/env bash
# Verify tileport on a GPU host that has no network and no cargo, from an offline bundle.
#
# Run from the repo root with the bundle at .bundle/toolchain.tar.xz (`tileport toolchain pack
# .bundle/toolchain.tar.xz --python 3.12` on the dev machine). CUDA_HOME is left exactly as the host sets it: the
# point is to prove tileport survives it. Reports go to $1 (default: $OUT, else ./gpu-report).
set -uo pipefail
out=${1:-${OUT:-gpu-report}}
mkdir -p "$out"
export PYTHONPATH="$PWD/src${PYTHONPATH:+:$PYTHONPATH}" PYTHONUNBUFFERED=1
tc=/tmp/tileport-toolchain

{
  echo "date: $(date -u +%FT%TZ)"
  echo "CUDA_HOME=${CUDA_HOME-<unset>}"
  python3 --version
  nvidia-smi --query-gpu=name,driver_version,compute_cap,memory.total --format=csv
} > "$out/host.txt" 2>&1
cat "$out/host.txt"

python3 -m tileport toolchain unpack .bundle/toolchain.tar.xz "$tc" 2>&1 | tee "$out/unpack.log"
[ "${PIPESTATUS[0]}" = 0 ] || { echo "unpack failed: stopping" | tee -a "$out/unpack.log"; exit 1; }
# shellcheck disable=SC1091
source "$tc/env.sh"

python3 -m tileport doctor --require-gpu 2>&1 | tee "$out/doctor.txt"
echo "doctor exit code: ${PIPESTATUS[0]}" | tee -a "$out/doctor.txt"
python3 -m tileport doctor --require-gpu --json > "$out/doctor.json"

# The Rust kernel library (built and packed on the dev machine: `tileport ops pack .bundle/tileport-ops.tar.xz`);
# no cargo here, so it must be fresh for this checkout and is never rebuilt.
if [ -f .bundle/tileport-ops.tar.xz ]; then
  eval "$(python3 -m tileport ops unpack .bundle/tileport-ops.tar.xz /tmp/tileport-lib)"
  export TILEPORT_LIBRARY TILEPORT_AUTOBUILD
  python3 -m tileport ops list 2>&1 | tee "$out/ops-list.txt"
fi

python3 -m pytest -p no:cacheprovider -v -rA ${TILEPORT_GPU_TESTS:-tests/gpu} 2>&1 | tee "$out/gpu-tests.log"
echo "gpu tests exit code: ${PIPESTATUS[0]}" | tee -a "$out/gpu-tests.log"
python3 scripts/record_launch_signatures.py "$out/launch_signatures.json" 2>&1 | tee "$out/launch_signatures.log"

if [ "${TILEPORT_BENCH:-1}" = 1 ]; then
  python3 -m tileport bench --out "$out/bench" ${TILEPORT_BENCH_ARGS:-} 2>&1 | tee "$out/bench.log"
  echo "bench exit code: ${PIPESTATUS[0]}" | tee -a "$out/bench.log"
fi
