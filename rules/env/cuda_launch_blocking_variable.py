"""`CUDA_LAUNCH_BLOCKING` set, unset or read: in Python (`os.environ`, `os.getenv`, subprocess `env=`), shell scripts, `.env` files,
Dockerfiles (`ENV`, `ARG`, `RUN`/`CMD`/`ENTRYPOINT` in shell form or as `sh -c` exec form) and YAML (Kubernetes
`env:`, ConfigMap `data` and Secret `stringData` keys, compose `environment:`, CI `env:`/`variables:`, `run:`/`script:`
shell text).

The CUDA runtime makes every launch synchronous under `CUDA_LAUNCH_BLOCKING=1`; the HIP runtime does not read the
variable. Its counterpart is `AMD_SERIALIZE_KERNEL` (ROCm's runtime flags: 1 waits for the previous work to complete
before each launch, 2 waits for the launch itself to complete, 3 both), and PyTorch on ROCm asks for
`AMD_SERIALIZE_KERNEL=3` in its "kernel errors might be asynchronously reported" hint. So a setting of `1` becomes
`AMD_SERIALIZE_KERNEL=3`, and `0` becomes `AMD_SERIALIZE_KERNEL=0`; an unset (`unset`, `del os.environ[...]`,
`os.environ.pop`) unsets `AMD_SERIALIZE_KERNEL`. Only the name and the value bytes change: quotes, `export`, the
surrounding command stay. (`HIP_LAUNCH_BLOCKING=1` also exists; it only waits after each launch, like
`AMD_SERIALIZE_KERNEL=2`.)

Reads are reported, not renamed: code that checks `os.environ.get("CUDA_LAUNCH_BLOCKING") == "1"` compares with
CUDA's value, and `AMD_SERIALIZE_KERNEL` takes other ones (3), so a renamed read would silently never match; RCCL
also still reads `CUDA_LAUNCH_BLOCKING` for its own launches. A value built at run time, or one other than 0 and
1, is reported for a hand edit. A file that already sets `AMD_SERIALIZE_KERNEL` keeps its `CUDA_LAUNCH_BLOCKING`
(noted): renaming it would set the variable twice.

Fix safety: SAFE; it only changes which runtime flag a debugging run sets.
"""
from __future__ import annotations

from migrate.deploy.env import rule_sites
from migrate.deploy.env_edits import rename, taken
from migrate.deploy.env_site import Access
from migrate.model import Severity
from migrate.rule import EnvRule, Invalid, Valid

SOURCE = "CUDA_LAUNCH_BLOCKING"
TARGET = "AMD_SERIALIZE_KERNEL"
VALUES = {"1": "3", "0": "0"}
MODES = "0 off, 1 wait before each launch, 2 wait after it, 3 both"
CONFIGMAP = ('apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: trainer-env\ndata:\n  CUDA_VISIBLE_DEVICES: "0,1"\n'
             '  NCCL_DEBUG: INFO\n  CUDA_LAUNCH_BLOCKING: "1"\n')


class CudaLaunchBlockingVariable(EnvRule):
    code = "PY020"
    example_path = "train.py"
    examples = [
        Valid('import os\nos.environ["AMD_SERIALIZE_KERNEL"] = "3"\n'),
        Valid('import os\nos.environ["CUDA_LAUNCH_BLOCKING_HELP"] = "1"\nprint("CUDA_LAUNCH_BLOCKING=1")\n'),
        Valid("export AMD_SERIALIZE_KERNEL=3\npython train.py\n", path="debug.sh"),
        Invalid("# read by docker compose (env_file)\nCUDA_LAUNCH_BLOCKING=1\nWANDB_MODE=offline\n",
                fixed="# read by docker compose (env_file)\nAMD_SERIALIZE_KERNEL=3\nWANDB_MODE=offline\n", path=".env",
                line=2),
        Invalid('import os\n\nos.environ["CUDA_LAUNCH_BLOCKING"] = "1"\n',
                fixed='import os\n\nos.environ["AMD_SERIALIZE_KERNEL"] = "3"\n', line=3,
                message="CUDA_LAUNCH_BLOCKING=1 serializes launches on the CUDA runtime only: HIP's counterpart is "
                        "AMD_SERIALIZE_KERNEL=3 (wait for completion before and after each launch)"),
        Invalid("import subprocess\nfrom os import environ\n\n"
                "subprocess.run(['python', 't.py'], env={**environ, 'CUDA_LAUNCH_BLOCKING': '0'})\n",
                fixed="import subprocess\nfrom os import environ\n\n"
                      "subprocess.run(['python', 't.py'], env={**environ, 'AMD_SERIALIZE_KERNEL': '0'})\n", line=4),
        Invalid("#!/bin/bash\nexport CUDA_LAUNCH_BLOCKING=1\nCUDA_LAUNCH_BLOCKING=1 python train.py\n"
                "unset CUDA_LAUNCH_BLOCKING\n",
                fixed="#!/bin/bash\nexport AMD_SERIALIZE_KERNEL=3\nAMD_SERIALIZE_KERNEL=3 python train.py\n"
                      "unset AMD_SERIALIZE_KERNEL\n", line=2, path="debug.sh"),
        Invalid('FROM rocm/pytorch:latest\nENV CUDA_LAUNCH_BLOCKING="1"\n'
                'RUN CUDA_LAUNCH_BLOCKING=1 python -m pytest \\\n    tests/\n',
                fixed='FROM rocm/pytorch:latest\nENV AMD_SERIALIZE_KERNEL="3"\n'
                      'RUN AMD_SERIALIZE_KERNEL=3 python -m pytest \\\n    tests/\n', line=2, path="Dockerfile"),
        Invalid('env:\n  - name: CUDA_LAUNCH_BLOCKING\n    value: "1"\n',
                fixed='env:\n  - name: AMD_SERIALIZE_KERNEL\n    value: "3"\n', line=2, path="job.yaml"),
        Valid('env:\n  - : CUDA_LAUNCH_BLOCKING\n    value: "1"\n', path="job.yaml"),  # a pair with no key (a fuzz find)
        Valid('FROM rocm/pytorch:latest\nRUN ["echo", "CUDA_LAUNCH_BLOCKING=1"]\n', path="Dockerfile"),
        Valid("apiVersion: example.org/v1\nkind: Settings\nmetadata:\n  name: s\ndata:\n"
              "  CUDA_LAUNCH_BLOCKING: \"1\"\n", path="settings.yaml"),
        Invalid(CONFIGMAP, fixed=CONFIGMAP.replace('CUDA_LAUNCH_BLOCKING: "1"', 'AMD_SERIALIZE_KERNEL: "3"'),
                line=8, path="configmap.yaml"),
        Invalid('FROM rocm/pytorch:latest\nRUN ["/bin/sh", "-c", "CUDA_LAUNCH_BLOCKING=1 pytest \\"tests\\""]\n',
                fixed='FROM rocm/pytorch:latest\nRUN ["/bin/sh", "-c", "AMD_SERIALIZE_KERNEL=3 pytest \\"tests\\""]\n',
                line=2, path="Dockerfile"),
        Invalid('import os\n\nif os.getenv("CUDA_LAUNCH_BLOCKING") == "1":\n    print("synchronous launches")\n',
                line=3, message="reads CUDA_LAUNCH_BLOCKING, which the HIP runtime neither reads nor sets: on ROCm "
                                "launches are serialized by AMD_SERIALIZE_KERNEL (0 off, 1 wait before each launch, "
                                "2 wait after it, 3 both), which this check does not see; read it too, by hand"),
        Invalid("import os\nos.environ['CUDA_LAUNCH_BLOCKING'] = str(int(debug))\n", line=2),
    ]

    def check(self, ctx):
        sites = rule_sites(ctx)
        for site in sites:
            if site.name != SOURCE:
                continue
            if site.access is Access.READ:
                yield self.finding(ctx, site.start, site.end, f"reads {SOURCE}, which the HIP runtime neither reads "
                                   f"nor sets: on ROCm launches are serialized by {TARGET} ({MODES}), which this "
                                   "check does not see; read it too, by hand", severity=Severity.WARNING)
            elif site.access is Access.UNSET:
                yield self.finding(ctx, site.start, site.end, f"unsets {SOURCE}, which the HIP runtime does not "
                                   f"read: its counterpart is {TARGET}", edits=rename(site, TARGET),
                                   title=f"Unset {TARGET}")
            elif taken(sites, site, TARGET):
                yield self.finding(ctx, site.start, site.end, f"{SOURCE} is read by the CUDA runtime only; this "
                                   f"file also sets {TARGET}, HIP's counterpart, so it is left as it is")
            elif site.value in VALUES:
                new = VALUES[site.value]
                what = "wait for completion before and after each launch" if new == "3" else "no serialization"
                yield self.finding(ctx, site.start, site.end, f"{SOURCE}={site.value} serializes launches on the CUDA "
                                   f"runtime only: HIP's counterpart is {TARGET}={new} ({what})",
                                   edits=rename(site, TARGET, new), title=f"Set {TARGET}={new}")
            else:
                value = f"to {site.value!r}" if site.value is not None else "at run time"
                yield self.finding(ctx, site.start, site.end, f"{SOURCE} set {value}: the HIP runtime reads {TARGET} "
                                   f"instead ({MODES}); set it by hand", severity=Severity.WARNING)
