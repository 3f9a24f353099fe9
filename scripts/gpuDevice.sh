#!/bin/bash
# The GPU backend on a machine with a card (issue 21), in the way of the lead's .dev/device.sh: Node
# and the solver's runtime modules travel xz-compressed in the git-ignored .dev/ folder (node.xz,
# mods.tar.xz: tsx, esbuild, valibot), and so do Dawn for Node and the Vulkan loader (gpu.tar.xz).
#
#   scripts/gpuDevice.sh pack   here: writes .dev/gpu.tar.xz (node_modules/webgpu's index.js,
#                               package.json, dist/linux-x64/dawn.node; apache-arrow, flatbuffers
#                               and tslib for the output writer; the Debian packages of the
#                               Vulkan loader, apt-get download)
#   scripts/gpuDevice.sh run    there, from the checkout root: unpacks Node, the modules and
#                               gpu.tar.xz, installs the loader (dpkg -x into /, ldconfig), then
#                               prints the adapter, the GPU/CPU agreement on a small dam break,
#                               a 1M dam break's minutes per simulated second, the bench
#                               (bench/solver/gpu.bench.ts: 1M/4M/16M), SPHERIC Test 2 at 5M fluid
#                               particles on the GPU with its outputs' cost (awaited, and overlapped
#                               with the steps: bench/solver/gpuOutputCost.ts), the validation cases
#                               on the GPU at their real resolutions (scripts/validate.ts
#                               --backend=gpu; VALIDATE_ARGS adds arguments, e.g.
#                               --only=hydrostatic), then where a CPU step's time goes per thread
#                               count (stepProfile.ts), the sort's alone with its counting's
#                               balance on 2 to 64 threads (sortProfile.ts) and the CPU solver's
#                               thread scaling (scaling16.ts, issue 22). $OUT, when set, gets the
#                               logs; at most 8 files come back, so the profile and the scaling
#                               share cpuScaling.log (scaling16.json beside it). Each part's time
#                               limit is a variable (GPU_RUN_S, GPU_BENCH_S, KLEEFSMAN_S,
#                               VALIDATE_S, PROFILE_S, SORT_S, SCALING_S, FINE_S); PARTS names the
#                               parts to run (default: gpu bench kleefsman validate profile
#                               scaling; 'fine', the free-surface cases at twice their resolution,
#                               validate --fine, is asked for by name).
set -e
mode=${1:-run}
if [ "$mode" = pack ]; then
  rm -rf .tmp/gpu-pack && mkdir -p .tmp/gpu-pack/debs .dev
  (cd .tmp/gpu-pack/debs && apt-get download libvulkan1 libegl1 libglvnd0 libopengl0 libgl1 libglx0 libgles2)
  # apache-arrow and its runtime dependencies: the output writer (the kleefsman outputs' cost)
  tar -cJf .dev/gpu.tar.xz node_modules/webgpu/index.js node_modules/webgpu/package.json \
    node_modules/webgpu/dist/linux-x64/dawn.node --exclude=node_modules/apache-arrow/node_modules \
    node_modules/apache-arrow node_modules/flatbuffers node_modules/tslib -C .tmp/gpu-pack debs
  ls -la .dev/gpu.tar.xz
  exit 0
fi
python3 - <<'PY'
import lzma, tarfile, os, shutil
os.makedirs('/tmp/nodebin', exist_ok=True)
with lzma.open('.dev/node.xz') as src, open('/tmp/nodebin/node', 'wb') as dst:
    shutil.copyfileobj(src, dst)
os.chmod('/tmp/nodebin/node', 0o755)
for archive in ('.dev/mods.tar.xz', '.dev/gpu.tar.xz'):
    with tarfile.open(archive, 'r:xz') as t:
        t.extractall('.')
PY
for deb in debs/*.deb; do dpkg -x "$deb" /; done
ldconfig || true
export PATH=/tmp/nodebin:$PATH
OUT=${OUT:-/tmp}
T="node node_modules/tsx/dist/cli.mjs"
echo "node $(node --version), $(nproc) cores"; nvidia-smi -L 2>/dev/null || true
# each part has its own time limit, so one that hangs leaves the others their time
run() { echo "== $(date +%T) ${*:2}"; timeout "$1" $T "${@:2}" 2>&1; }
if ! run 60 bench/solver/gpuDevice.ts --fluid 1000 --sim-s 0.001 | grep -q '^adapter'; then
  # Dawn found no adapter: point the loader at NVIDIA's ICD (TOOLCHAIN.md)
  export VK_DRIVER_FILES=/usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json
fi
# GPU memory and load every 2 s, for the memory per million particles (issue 21 item 5)
if command -v nvidia-smi >/dev/null; then
  nvidia-smi --query-gpu=timestamp,memory.used,utilization.gpu --format=csv -l 2 >"$OUT/nvidiaSmi.csv" &
fi
# PARTS picks what runs (default all): gpu bench kleefsman validate profile scaling
PARTS=" ${PARTS:-gpu bench kleefsman validate profile scaling} "
has() { [[ "$PARTS" == *" $1 "* ]]; }
has gpu && run "${GPU_RUN_S:-100}" bench/solver/gpuDevice.ts --fluid 1000000 --sim-s 0.02 | tee "$OUT/gpuDevice.log"
has bench && run "${GPU_BENCH_S:-180}" bench/run.ts --filter solver/gpu | tee "$OUT/gpuBench.log"
has kleefsman && run "${KLEEFSMAN_S:-120}" bench/solver/gpuDevice.ts --kleefsman-fluid "${KLEEFSMAN_FLUID:-5000000}" --sim-s 0.02 | tee "$OUT/kleefsman.log"
# the validation cases on the GPU (issue 21 item 3); a case the GPU refuses says why, in one line
has validate && run "${VALIDATE_S:-240}" scripts/validate.ts --backend=gpu ${VALIDATE_ARGS:-} | tee "$OUT/validateGpu.log"
# issue 12: the free-surface cases at their finer resolution and twice it (validate --fine), where
# the CPU's two cores cannot go; not in the default parts (PARTS="fine ...")
has fine && run "${FINE_S:-300}" scripts/validate.ts --backend=gpu --fine --jobs="${FINE_JOBS:-4}" ${FINE_ARGS:-} | tee "$OUT/validateFine.log"
# issue 22: the CPU solver's thread scaling on this machine's cores, and where a step's time goes
if has profile; then
  lscpu | grep -E 'Model name|^CPU\(s\)|Thread|Core|Socket|NUMA node|L2|L3' || true
  head -1 /proc/stat
  run "${PROFILE_S:-120}" bench/solver/stepProfile.ts --fluid 300000 --threads "${PROFILE_THREADS:-1,2,4,8,16}" --steps 4 | tee "$OUT/cpuScaling.log"
  run "${SORT_S:-90}" bench/solver/sortProfile.ts --fluid 300000 --threads "${PROFILE_THREADS:-1,2,4,8,16}" --sorts 10 | tee -a "$OUT/cpuScaling.log"
  head -1 /proc/stat
fi
has scaling && OUT=$OUT run "${SCALING_S:-170}" bench/solver/scaling16.ts --row-s "${SCALING_ROW_S:-8}" | tee -a "$OUT/cpuScaling.log"
echo done
