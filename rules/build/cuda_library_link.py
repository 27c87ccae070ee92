"""CUDA math and communication libraries linked by name: `-lcublas`, `-lcurand`, `-lnccl`, ...

The C++ rules move the calls to the HIP wrapper libraries (hipBLAS, hipRAND, hipFFT, hipSPARSE,
hipSOLVER, RCCL, ...), so the link names follow: `-lcublas` → `-lhipblas`, `-lcublasLt` → `-lhipblaslt`,
`-lcurand` → `-lhiprand`, `-lcufft` → `-lhipfft`, `-lcusparse` → `-lhipsparse`, `-lcusolver` →
`-lhipsolver`, `-lnccl` → `-lrccl`, `-lnvrtc` → `-lhiprtc`, `-lnvToolsExt` → `-lroctx64`, `-lcudnn` →
`-lMIOpen` (whose calls the cudnn pack and CPP030-CPP033 port). A `_static` variant maps to the same library
(ROCm ships them shared). hipRTC is part of libamdhip64 before ROCm 6.0,
so for older targets `-lnvrtc` is removed. Libraries newer than the target HIP (hipBLASLt, hipTensor:
5.7; hipSPARSELt: 6.0) are mapped with a warning. Libraries without a drop-in counterpart (CUPTI, NVML, NPP,
nvJPEG, cuFile, cuFFTW) are reported and left in place.
"""
from migrate.buildfiles.make import drop
from migrate.model import Edit, Severity
from migrate.rule import MakeRule, Invalid, Valid

RENAMED = {  # CUDA library → (HIP library, since HIP version)
    "cublas": ("hipblas", (0, 0)), "cublasLt": ("hipblaslt", (5, 7)), "curand": ("hiprand", (0, 0)),
    "cufft": ("hipfft", (0, 0)), "cusparse": ("hipsparse", (0, 0)), "cusolver": ("hipsolver", (0, 0)),
    "cusparseLt": ("hipsparselt", (6, 0)), "cutensor": ("hiptensor", (5, 7)), "nccl": ("rccl", (0, 0)),
    "nvrtc": ("hiprtc", (6, 0)), "nvToolsExt": ("roctx64", (0, 0)), "nvtx3interop": ("roctx64", (0, 0)),
    "cudnn": ("MIOpen", (0, 0)),
}
IN_RUNTIME = {"nvrtc": "hipRTC is part of libamdhip64 before ROCm 6.0, and hipcc links that",
              "nvrtc-builtins": "hipRTC's builtins are found by hipRTC itself"}
UNMAPPED = {
    "cupti": "CUPTI's counterparts (rocprofiler-sdk, roctracer) have different APIs",
    "nvidia-ml": "NVML's counterpart is AMD SMI (-lamd_smi), with a different API",
    "nvjpeg": "nvJPEG's counterpart rocJPEG has a different API",
    "cufile": "cuFile (GPUDirect Storage) has no ROCm counterpart",
    "cufftw": "cuFFTW (the FFTW interface) has no hipFFT counterpart: call hipFFT, or link FFTW on the host",
}


class CudaLibraryLink(MakeRule):
    code = "BLD105"
    examples = [
        Invalid("LIBS := -lcublas -lcudart\n", fixed="LIBS := -lhipblas -lcudart\n", line=1),
        Invalid("LDLIBS = -lcurand -lcufft -lcusparse -lcusolver -lnccl\n",
                fixed="LDLIBS = -lhiprand -lhipfft -lhipsparse -lhipsolver -lrccl\n"),
        Invalid("app: app.cu\n\tnvcc -o $@ $< -lcublas_static -lcublasLt_static\n",
                fixed="app: app.cu\n\tnvcc -o $@ $< -lhipblas -lhipblaslt\n", line=2),
        Invalid("LIBS = -lnvrtc -lnvToolsExt\n", fixed="LIBS = -lhiprtc -lroctx64\n"),
        Invalid("LDLIBS += -lnvtx3interop\n", fixed="LDLIBS += -lroctx64\n"),  # NVTX 3's injection library
        Invalid("LIBS = -lcuda -lnvrtc\n", fixed="LIBS = -lcuda\n", options=(("hip_version", "5.2"),)),
        Invalid("LIBS = -lcublasLt\n", fixed="LIBS = -lhipblaslt\n", options=(("hip_version", "5.2"),),
                message="-lcublasLt links cuBLASLt: its HIP counterpart is -lhipblaslt, which needs HIP 5.7 or "
                        "later (the target is 5.2)"),
        Invalid("LIBS = -lcudnn -lcublas\n", fixed="LIBS = -lMIOpen -lhipblas\n",
                message="-lcudnn links cuDNN: its HIP counterpart is -lMIOpen"),
        Valid("LIBS := -lhipblas -lhiprand -lrccl\n"),
        Valid("LIBS := -lcublas_wrapper -lcurses\n"),
        Valid("# LIBS := -lcublas\n"),
    ]

    def check(self, ctx):
        for line in ctx.lines:
            if line.kind not in ("assign", "recipe"):
                continue
            for word in line.words:
                if not word.text.startswith("-l"):
                    continue
                name = word.text[2:]
                base = name[:-len("_static")] if name.endswith("_static") else name
                if base in IN_RUNTIME and (base != "nvrtc" or ctx.target_tuple < RENAMED["nvrtc"][1]):
                    floor = line.start + (1 if line.kind == "recipe" else 0)
                    yield self.finding(ctx, word.start, word.end, f"{word.text}: {IN_RUNTIME[base]}",
                                       edits=[drop(ctx.data, floor, word.start, word.end)], title=f"Remove {word.text}")
                elif base in RENAMED:
                    hip, since = RENAMED[base]
                    message = f"{word.text} links {self._label(base)}: its HIP counterpart is -l{hip}"
                    severity = None
                    if ctx.target_tuple < since:
                        message += f", which needs HIP {since[0]}.{since[1]} or later (the target is {ctx.target})"
                        severity = Severity.WARNING
                    elif name != base:
                        message += " (ROCm ships it as a shared library)"
                    yield self.finding(ctx, word.start, word.end, message, severity=severity,
                                       edits=[Edit(word.start, word.end, f"-l{hip}")], title=f"Link -l{hip}")
                elif base in UNMAPPED or base.startswith("npp"):
                    why = UNMAPPED.get(base, "NPP has no drop-in ROCm counterpart (AMD's RPP has a different API)")
                    yield self.finding(ctx, word.start, word.end, f"{word.text}: {why}", severity=Severity.WARNING)

    @staticmethod
    def _label(base: str) -> str:
        names = {"cublas": "cuBLAS", "cublasLt": "cuBLASLt", "curand": "cuRAND", "cufft": "cuFFT",
                 "cusparse": "cuSPARSE", "cusolver": "cuSOLVER", "cusparseLt": "cuSPARSELt", "cutensor": "cuTENSOR",
                 "nccl": "NCCL", "nvrtc": "NVRTC", "nvToolsExt": "NVTX", "nvtx3interop": "NVTX 3", "cudnn": "cuDNN"}
        return names[base]
