#!/usr/bin/env bash
# Build and run every CUDA sample under samples/ with nvcc, each from its own
# Makefile or CMakeLists.txt, in a temporary build directory (the sources are
# never written to). Prints "<sample>: <last output line>" for each sample and
# exits non-zero if any sample fails to build, exits non-zero, or does not end
# with PASSED.
#
# Environment variables (all optional):
#   NVCC               nvcc to use (default: nvcc on PATH)
#   EXTRA_FLAGS        extra nvcc flags for every compile and link, e.g.
#                      "-I/opt/x/include -L/opt/x/lib" (CMake: CMAKE_CUDA_FLAGS)
#   CUDA_INC           directory holding cublas_v2.h / curand.h, if not in the
#                      CUDA install (passed as -I)
#   CUDA_LIBDIR        directory holding libcublas / libcurand, if not in the
#                      CUDA install (passed as -L, rpath and LD_LIBRARY_PATH)
#   NVIDIA_WHEEL_ROOT  a pip-wheel layout such as .../site-packages/nvidia/cu13
#                      (with include/ and lib/ inside); sets CUDA_INC and
#                      CUDA_LIBDIR. "auto" asks python3 where the nvidia-cublas
#                      / nvidia-curand wheels are installed.
#   CUDA_ARCH          CMAKE_CUDA_ARCHITECTURES for the CMake samples (default 90)
#   SAMPLES            space-separated subset of samples to run (default: all)
#   BUILD_ROOT         build directory (default: a fresh mktemp -d, removed at
#                      the end when every sample passed, unless KEEP_BUILD=1);
#                      <sample>.build.log and <sample>.out are written there
#
# pip wheels ship only versioned libraries (libcublas.so.13, libcurand.so.10),
# so for CUDA_LIBDIR the script links through a directory of symlinks that adds
# the unversioned names -lcublas / -lcurand need.
#
# Example on a GPU machine with cuBLAS/cuRAND from pip:
#   NVIDIA_WHEEL_ROOT=auto bash samples/run_all.sh
set -u

HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
NVCC="${NVCC:-nvcc}"
EXTRA_FLAGS="${EXTRA_FLAGS:-}"
CUDA_INC="${CUDA_INC:-}"
CUDA_LIBDIR="${CUDA_LIBDIR:-}"
CUDA_ARCH="${CUDA_ARCH:-90}"
SAMPLES="${SAMPLES:-saxpy_streams block_reduce cublas_sgemm curand_pi multifile_constant}"

if [ "${NVIDIA_WHEEL_ROOT:-}" = "auto" ]; then
    NVIDIA_WHEEL_ROOT="$(python3 - <<'PY' 2>/dev/null
import glob, os
try:
    import nvidia
    roots = list(nvidia.__path__)
except ImportError:
    roots = []
for root in roots:
    for inc in sorted(glob.glob(os.path.join(root, "*", "include", "cublas_v2.h"))):
        print(os.path.dirname(os.path.dirname(inc)))
        raise SystemExit
PY
)"
    [ -n "$NVIDIA_WHEEL_ROOT" ] || echo "run_all.sh: no nvidia wheel found by python3; using the CUDA install only" >&2
fi
if [ -n "${NVIDIA_WHEEL_ROOT:-}" ]; then
    CUDA_INC="${CUDA_INC:-$NVIDIA_WHEEL_ROOT/include}"
    CUDA_LIBDIR="${CUDA_LIBDIR:-$NVIDIA_WHEEL_ROOT/lib}"
fi

failures=0
if [ -z "${BUILD_ROOT:-}" ]; then
    BUILD_ROOT="$(mktemp -d /tmp/hipmigrate-samples.XXXXXX)"
    cleanup() {
        if [ "$failures" -eq 0 ] && [ "${KEEP_BUILD:-0}" != "1" ]; then
            rm -rf "$BUILD_ROOT"
        fi
    }
    trap cleanup EXIT
fi
mkdir -p "$BUILD_ROOT"

LINK_DIR=""
if [ -n "$CUDA_LIBDIR" ]; then
    LINK_DIR="$BUILD_ROOT/_libs"
    mkdir -p "$LINK_DIR"
    for lib in "$CUDA_LIBDIR"/lib*.so*; do
        [ -e "$lib" ] || continue
        name="$(basename "$lib")"
        ln -sf "$lib" "$LINK_DIR/$name"
        base="${name%%.so*}.so"
        [ -e "$LINK_DIR/$base" ] || ln -sf "$lib" "$LINK_DIR/$base"
    done
    export LD_LIBRARY_PATH="$CUDA_LIBDIR${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
fi

CMAKE_FLAGS="$EXTRA_FLAGS${CUDA_INC:+ -I$CUDA_INC}"
for name in $SAMPLES; do
    src="$HERE/$name/src"
    bdir="$BUILD_ROOT/$name"
    log="$BUILD_ROOT/$name.build.log"
    out="$BUILD_ROOT/$name.out"
    rm -rf "$bdir"
    if [ -f "$src/Makefile" ]; then
        cp -r "$src" "$bdir"
        make -C "$bdir" NVCC="$NVCC" EXTRA_FLAGS="$EXTRA_FLAGS" \
            CUDA_INC="$CUDA_INC" CUDA_LIBDIR="$LINK_DIR" >"$log" 2>&1
    elif [ -f "$src/CMakeLists.txt" ]; then
        { cmake -S "$src" -B "$bdir" -DCMAKE_CUDA_COMPILER="$(command -v "$NVCC")" \
                -DCMAKE_CUDA_ARCHITECTURES="$CUDA_ARCH" -DCMAKE_CUDA_FLAGS="$CMAKE_FLAGS" &&
          cmake --build "$bdir"; } >"$log" 2>&1
    else
        echo "$name: no Makefile or CMakeLists.txt in $src" >"$log"
        false
    fi
    if [ $? -ne 0 ] || [ ! -x "$bdir/$name" ]; then
        echo "$name: BUILD FAILED (log: $log)"
        tail -n 20 "$log" | sed 's/^/    /'
        failures=$((failures + 1))
        continue
    fi
    (cd "$bdir" && "./$name") >"$out" 2>&1
    rc=$?
    last="$(tail -n 1 "$out")"
    echo "$name: $last"
    if [ $rc -ne 0 ] || [ "$last" != "PASSED" ]; then
        echo "    (exit code $rc, output: $out)"
        failures=$((failures + 1))
    fi
done

if [ $failures -ne 0 ]; then
    echo "run_all.sh: $failures sample(s) failed"
    exit 1
fi
echo "run_all.sh: all samples passed"
