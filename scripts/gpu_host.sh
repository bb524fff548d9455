# Sourced by the GPU-host scripts (gpu_served.sh, gpu_live_capture.sh, gpu_triton.sh, gpu_ops.sh) after they set
# `out`: makes $out, records the host (host.txt), makes the offline toolchain available and sources its env.sh, with
# tileport's checkout first on PYTHONPATH.
#
# The toolchain (~55 MB) and the tracked tree travel within the device tool's 64 MiB, leaving little room for
# anything else. So it is unpacked into .devcache/tc (ignored by git), which stays on the device while the machine
# is held: a call that carries .bundle/toolchain.tar.xz unpacks it there; the next calls carry what they need
# instead (served library, ops library) and find it. Without either: exit 3 at once, saying so.
mkdir -p "$out"
export PYTHONPATH="$PWD/src${PYTHONPATH:+:$PYTHONPATH}" PYTHONUNBUFFERED=1
{ date -u +%FT%TZ; nvidia-smi --query-gpu=name,driver_version,compute_cap --format=csv; python3 --version; } \
  > "$out/host.txt" 2>&1
tc="$PWD/.devcache/tc"
# The bundle in two parts, one per call (the tracked tree grew until tree + whole bundle passed the 64 MiB carry):
# `split -n 2 -d .bundle/toolchain.tar.xz .bundle/toolchain.tar.xz.part` on the dev machine; the first call carries
# ".bundle/toolchain.tar.xz.part00" alone (kept in .devcache/parts; the script stops there, exit 0), the next carries
# ".bundle/toolchain.tar.xz.part01" beside its pack: the parts are joined and unpacked (the unpack checks every
# file's SHA-256 against the bundle's manifest).
bundle=.bundle/toolchain.tar.xz
if compgen -G ".bundle/toolchain.tar.xz.part*" > /dev/null; then
  mkdir -p .devcache/parts && cp .bundle/toolchain.tar.xz.part* .devcache/parts/
  if [ -f .devcache/parts/toolchain.tar.xz.part00 ] && [ -f .devcache/parts/toolchain.tar.xz.part01 ]; then
    cat .devcache/parts/toolchain.tar.xz.part* > /tmp/toolchain.tar.xz && bundle=/tmp/toolchain.tar.xz
    rm -rf .devcache/parts
  else
    echo "toolchain: part kept in .devcache/parts ($(ls .devcache/parts | tr '\n' ' ')); carry the other part next" \
      | tee -a "$out/host.txt"
    exit 0
  fi
fi
if [ -f "$bundle" ]; then
  rm -rf "$tc"
  python3 -m tileport toolchain unpack "$bundle" "$tc" > /tmp/unpack.log 2>&1 \
    || { cat /tmp/unpack.log; exit 1; }
  echo "toolchain: unpacked from $bundle into $tc" >> "$out/host.txt"
elif [ -f "$tc/env.sh" ]; then
  echo "toolchain: reused $tc (unpacked by an earlier call on this machine)" >> "$out/host.txt"
else
  echo "no toolchain: carry .bundle (toolchain.tar.xz), or call right after a call that did, while the machine is held"
  exit 3
fi
# shellcheck disable=SC1091
source "$tc/env.sh"
unset CUDA_HOME   # tileiras 13.4 loads the wrong libnvvm through CUDA 13.0's (docs/gpu.md); tileport drops it too

# corpus_dir NAME: a corpus carried as PACK/NAME (a folder) or PACK/NAME.tar.xz (unpacked once into .devcache)
corpus_dir() {
  if [ -d "$pack/$1" ]; then echo "$PWD/$pack/$1"; return; fi
  if [ -f "$pack/$1.tar.xz" ]; then
    rm -rf ".devcache/corpus/$1" && mkdir -p .devcache/corpus && tar xJf "$pack/$1.tar.xz" -C .devcache/corpus
  fi
  if [ -d ".devcache/corpus/$1" ]; then echo "$PWD/.devcache/corpus/$1"; return; fi
  echo "missing corpus $1: carry $pack/$1 or $pack/$1.tar.xz" >&2
  return 3
}

# perf_loop_once: TileGym's perf tests time each case themselves (tests/common.py `benchmark`: 100 ms warm-up, 50 ms
# of runs); neither the launch timing nor a capture uses those numbers, so their loop is cut to one run (its own
# WARMUP/REP knobs) unless the caller set them. (Autotuners still time every config.)
perf_loop_once() {
  export WARMUP=${WARMUP:-1} REP=${REP:-1} MIN_REP=${MIN_REP:-1} INITIAL_REP=${INITIAL_REP:-1}
}
