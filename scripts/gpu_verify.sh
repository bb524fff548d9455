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

python3 -m pytest -p no:cacheprovider -v -rA tests/gpu 2>&1 | tee "$out/gpu-tests.log"
echo "gpu tests exit code: ${PIPESTATUS[0]}" | tee -a "$out/gpu-tests.log"
python3 scripts/record_launch_signatures.py "$out/launch_signatures.json" 2>&1 | tee "$out/launch_signatures.log"
