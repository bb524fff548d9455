#!/usr/bin/env bash
# On the GPU host: issue 21's open performance questions (docs/triton.md, "Performance of the corpus ports") — each
# slow tutorial kernel's port timed against Triton under one change at a time (benchmarks/corpus/triton_hints_probe.py,
# the tutorial run as a script, its first CHECKS distinct launches checked and timed in CUDA graphs).
#
# Carried: .bundle/toolchain.tar.xz (or none right after a call that carried it) and PACK (default build/gpu21) holding
# triton-tutorials.tar.xz and probe.tar.xz (scripts/pack_gpu_triton.sh makes both).
# Writes to $OUT: host.txt, probe.txt (port/Triton per kernel and variant), probe-json.tar.xz (each kernel's checks).
# PROBE_TIMEOUT bounds the whole step (default 420 s).
set -uo pipefail
out=${OUT:-gpu-triton-probe}
pack=${PACK:-build/gpu21}
# shellcheck source=scripts/gpu_host.sh
source "$(dirname "$0")/gpu_host.sh"
tutorials=$(corpus_dir triton-tutorials) || exit 3
rm -rf .devcache/probe && mkdir -p .devcache/probe /tmp/probe-json && tar xJf "$pack/probe.tar.xz" -C .devcache/probe
end=$(( $(date +%s) + ${PROBE_TIMEOUT:-420} ))
while read -r tutorial kernel variants; do
  left=$(( end - $(date +%s) ))
  [ "$left" -gt 20 ] || { echo "$kernel: not run (time)" >> "$out/probe.txt"; continue; }
  ports=()   # each LABEL=DIR (a label may hold '=', a folder name is the kernel's folder then the label)
  for v in $variants; do d=${v##*=}; ports+=(--port "${v%=*}=.devcache/probe/$d"); done
  timeout "$left" python3 benchmarks/corpus/triton_hints_probe.py --tutorial "$tutorials/$tutorial" --kernel "$kernel" \
    "${ports[@]}" --checks "${CHECKS:-3}" --out "/tmp/probe-json/$kernel.json" >> "$out/probe.txt" 2>&1
  echo "exit $kernel: $?" >> "$out/probe.txt"
done < .devcache/probe/probes.txt
tar cJf "$out/probe-json.tar.xz" -C /tmp probe-json
true
