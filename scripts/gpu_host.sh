# Sourced by the GPU-host scripts (gpu_served.sh, gpu_live_capture.sh) after they set `out` and `pack`: makes $out,
# records the host (host.txt), unpacks the offline toolchain bundle (.bundle/toolchain.tar.xz) into /tmp/tc and
# sources its env.sh, with tileport's checkout first on PYTHONPATH.
mkdir -p "$out"
export PYTHONPATH="$PWD/src${PYTHONPATH:+:$PYTHONPATH}" PYTHONUNBUFFERED=1
{ date -u +%FT%TZ; nvidia-smi --query-gpu=name,driver_version,compute_cap --format=csv; python3 --version; } \
  > "$out/host.txt" 2>&1
python3 -m tileport toolchain unpack .bundle/toolchain.tar.xz /tmp/tc > /tmp/unpack.log 2>&1 || { cat /tmp/unpack.log; exit 1; }
# shellcheck disable=SC1091
source /tmp/tc/env.sh
