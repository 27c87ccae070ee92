#!/bin/sh
# Per-kernel times of the CUDA samples on the H200 device machine, through `hipmigrate bench --kernels` (Nsight
# Compute), run from the repository root: OUT=<folder> sh samples/bench/kernels-h200.sh
#
# That machine has no internet and its Python lacks the migration engine's packages, so hipmigrate's bench stage
# runs as `python3 -c "from migrate.commands.bench import bench; bench()"` (it needs only click and rich). cuBLAS,
# cuRAND, cuBLASLt, cuDNN and NCCL come from the pip wheels of its Python (the `nvidia` namespace package), through
# a folder of links that adds the unversioned library names (-lcublas, -lcudnn, ...) the Makefiles link with.
#
# Writes to $OUT: ncu-saxpy_streams.csv (ncu run by hand on one sample, the command in the log), kernels-h200.json
# (the six samples without outside libraries), kernels-h200-libs.json (the four with cuBLASLt, cuDNN, NCCL and
# bf16), kernels-h200-run2.json (the six again, not rebuilt), kernels-h200-pressure.json (kernel_pressure, added
# later: ONLY=pressure runs just that part), profiles.tar.gz (ncu's raw CSV of every profiled
# run, kept with --profile-dir) and log.txt.
set -u
OUT=${OUT:-/tmp/kernels-h200}
mkdir -p "$OUT"
exec >"$OUT/log.txt" 2>&1
set -x
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
ncu --version
NV=$(python3 -c "import nvidia; print(list(nvidia.__path__)[0])")
LIBS=$(mktemp -d)
for lib in $(find "$NV" -name 'lib*.so*'); do
    name=$(basename "$lib"); ln -sf "$lib" "$LIBS/$name"
    base=${name%%.so*}.so; [ -e "$LIBS/$base" ] || ln -sf "$lib" "$LIBS/$base"
done
inc() { dirname "$(find "$NV" -name "$1" | head -n 1)"; }
export CUDA_INC="$(inc cublas_v2.h)" CUDA_LIBDIR="$LIBS" CUDNN_INC="$(inc cudnn.h)" CUDNN_LIBDIR="$LIBS" \
    CUDNN_LIB=-lcudnn NCCL_INC="$(inc nccl.h)" NCCL_LIBDIR="$LIBS" LD_LIBRARY_PATH="$LIBS:${LD_LIBRARY_PATH:-}"

# One sample by hand: the raw CSV that tests/data/kernels/ncu/ keeps.
work=$(mktemp -d)
nvcc -O2 -std=c++17 -arch=sm_90 -o "$work/saxpy_streams" samples/saxpy_streams/src/saxpy_streams.cu
(cd "$work" && ncu --csv --print-units base --print-kernel-base demangled --clock-control none \
    --cache-control none --target-processes all --metrics gpu__time_duration.sum ./saxpy_streams) \
    >"$OUT/ncu-saxpy_streams.csv"

HM='from migrate.commands.bench import bench; bench()'
if [ "${ONLY:-}" = pressure ]; then
    timeout 120 python3 -c "$HM" samples/kernel_pressure -n 5 --kernels --profile-dir "$work/profiles" \
        --no-progress -o "$OUT/kernels-h200-pressure.json"
    tar -czf "$OUT/profiles.tar.gz" -C "$work" profiles
    exit 0
fi
A="samples/saxpy_streams samples/block_reduce samples/cublas_sgemm samples/curand_pi samples/multifile_constant
   samples/ballot_compaction"
B="samples/bf16_layernorm samples/cublaslt_gelu samples/cudnn_conv samples/nccl_nvtx_step"
timeout 180 python3 -c "$HM" $A -n 5 --kernels --profile-dir "$work/profiles" --no-progress \
    -o "$OUT/kernels-h200.json"
timeout 220 python3 -c "$HM" $B -n 5 --kernels \
    --profile-dir "$work/profiles" --no-progress -o "$OUT/kernels-h200-libs.json"
timeout 120 python3 -c "$HM" $A -n 5 --kernels --no-build \
    --no-progress -o "$OUT/kernels-h200-run2.json"
timeout 120 python3 -c "$HM" samples/kernel_pressure -n 5 --kernels --profile-dir "$work/profiles" --no-progress \
    -o "$OUT/kernels-h200-pressure.json"
tar -czf "$OUT/profiles.tar.gz" -C "$work" profiles
