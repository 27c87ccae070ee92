"""NVIDIA GPUs requested by a docker compose service: `runtime: nvidia`, or a `deploy.resources.reservations.devices`
entry with `driver: nvidia` or `capabilities: [gpu]`.

Why: both go through NVIDIA's container toolkit, which an AMD host does not have (compose fails with "could not
select device driver"). ROCm's container guide gives AMD GPUs to a container as devices: `/dev/kfd` (the compute
interface shared by all GPUs) and `/dev/dri` (one render node per GPU), with the `video` group for access.

Fix: the NVIDIA entries are removed (a `devices` list, `reservations`, `resources` or `deploy` left empty goes
with them) and the service gets, at its own indentation,
`devices: [/dev/kfd, /dev/dri]` and `group_add: [video]` as block lists. Safe when the entry asked for all GPUs
(`count: all`, or no `count` and no `device_ids`); unsafe (`--unsafe-fixes`) when it asked for some, since the
devices give the container every GPU (restrict it with `/dev/dri/renderD<N>` entries or `HIP_VISIBLE_DEVICES`).
On hosts where the GPU nodes belong to the `render` group and the container runs as a non-root user, add the host's
render group id to `group_add` (a group name must exist inside the image). A service that already has `devices`
or `group_add` is reported without a fix. NVIDIA variables in `environment` are left to the environment rules.
"""
from __future__ import annotations

from migrate.deploy import yaml_nodes as y
from migrate.model import Applicability, Edit, Severity
from migrate.rule import DeployRule, Invalid, Valid

MESSAGE = ("service {name} asks for NVIDIA GPUs ({what}), which need NVIDIA's container toolkit: AMD GPUs are "
           "given as devices /dev/kfd and /dev/dri with group video")
SOME = "; it asked for some GPUs, the devices give it all of them: restrict them by hand"

COMPOSE_IN = (
    "services:\n"
    "  train:\n"
    "    image: trainer:latest\n"
    "    runtime: nvidia\n"
    "    deploy:\n"
    "      resources:\n"
    "        reservations:\n"
    "          devices:\n"
    "            - driver: nvidia\n"
    "              count: all\n"
    "              capabilities: [gpu]\n"
    "    volumes:\n"
    "      - ./data:/data\n"
)
COMPOSE_OUT = (
    "services:\n"
    "  train:\n"
    "    image: trainer:latest\n"
    "    volumes:\n"
    "      - ./data:/data\n"
    "    devices:\n"
    "      - /dev/kfd\n"
    "      - /dev/dri\n"
    "    group_add:\n"
    "      - video\n"
)


class ComposeNvidiaGpu(DeployRule):
    code = "PY058"
    severity = Severity.WARNING
    file_kind = "yaml"
    example_path = "docker-compose.yml"
    examples = [
        Valid("services:\n  train:\n    image: x\n    devices:\n      - /dev/kfd\n      - /dev/dri\n"),
        Valid("services:\n  web:\n    deploy:\n      resources:\n        limits:\n          cpus: '2'\n"),
        Invalid(COMPOSE_IN, fixed=COMPOSE_OUT, line=4,
                message="service train asks for NVIDIA GPUs (runtime: nvidia, driver: nvidia), which need NVIDIA's "
                        "container toolkit: AMD GPUs are given as devices /dev/kfd and /dev/dri with group video"),
        Invalid("services:\n    infer:\n        image: x\n        deploy:\n            replicas: 2\n"
                "            resources:\n                reservations:\n                    devices:\n"
                "                    - capabilities: [\"gpu\"]\n                      device_ids: [\"0\"]\n",
                line=9,
                message="service infer asks for NVIDIA GPUs (capabilities: gpu), which need NVIDIA's container "
                        "toolkit: AMD GPUs are given as devices /dev/kfd and /dev/dri with group video; it asked for "
                        "some GPUs, the devices give it all of them: restrict them by hand"),
        Invalid("services:\n    infer:\n        image: x\n        deploy:\n            replicas: 2\n"
                "            resources:\n                reservations:\n                    devices:\n"
                "                    - capabilities: [\"gpu\"]\n                      device_ids: [\"0\"]\n",
                fixed="services:\n    infer:\n        image: x\n        deploy:\n            replicas: 2\n"
                      "        devices:\n          - /dev/kfd\n          - /dev/dri\n        group_add:\n"
                      "          - video\n",
                options=(("unsafe_fixes", True),)),
        Invalid("services:\n  app:\n    runtime: nvidia\n    devices:\n      - /dev/snd\n", line=3,
                message="service app asks for NVIDIA GPUs (runtime: nvidia), which need NVIDIA's container toolkit: "
                        "AMD GPUs are given as devices /dev/kfd and /dev/dri with group video; add them to its "
                        "devices and group_add by hand"),
    ]

    def check(self, ctx):
        data = ctx.data
        for top in y.documents(ctx.root):
            services = y.get(data, top, "services")
            for service in y.pairs(y.value_node(services)) if services is not None else []:
                yield from self._service(ctx, service)

    def _service(self, ctx, service):
        data = ctx.data
        body = y.mapping(y.value_node(service))
        if body is None or body.type != "block_mapping":
            return
        name = y.key(data, service)
        drops: list = []  # pairs or sequence-item nodes to delete
        what: list[str] = []
        some = False
        runtime = y.get(data, body, "runtime")
        if runtime is not None and y.scalar(data, y.value_node(runtime)) == "nvidia":
            drops.append(runtime)
            what.append("runtime: nvidia")
        devices_pair = None
        reservations = y.get(data, body, "deploy")
        for step in ("resources", "reservations", "devices"):
            reservations = y.get(data, y.value_node(reservations), step) if reservations is not None else None
        devices_pair = reservations
        gpu_items = []
        entries = y.items(y.value_node(devices_pair)) if devices_pair is not None else []
        for entry in entries:
            driver = y.scalar(data, y.value_node(y.get(data, entry, "driver") or entry))
            capabilities = y.get(data, entry, "capabilities")
            caps = [y.scalar(data, c) for c in y.items(y.value_node(capabilities))] if capabilities else []
            if driver != "nvidia" and "gpu" not in caps:
                continue
            gpu_items.append(entry)
            what.append("driver: nvidia" if driver == "nvidia" else "capabilities: gpu")
            count = y.get(data, entry, "count")
            if y.get(data, entry, "device_ids") is not None or (
                    count is not None and y.scalar(data, y.value_node(count)) not in ("all", "-1")):
                some = True
        if not what:
            return
        if gpu_items and len(gpu_items) == len(entries):
            drops.append(self._cascade(data, devices_pair, body))
        else:
            drops.extend(item.parent for item in gpu_items)  # block_sequence_item
        first = min([n for n in (runtime,) if n in drops] + gpu_items, key=lambda n: n.start_byte)
        message = MESSAGE.format(name=name, what=", ".join(dict.fromkeys(what)))
        if some:
            message += SOME
        if y.get(data, body, "devices") is not None or y.get(data, body, "group_add") is not None:
            yield self.finding(ctx, first.start_byte, first.end_byte,
                               message + "; add them to its devices and group_add by hand")
            return
        edits = []
        for node in drops:
            start, end = y.lines(data, node.start_byte, node.end_byte)
            edits.append(Edit(start, end, ""))
        indent = " " * y.pairs(body)[0].start_point[1]
        step = " " * 2
        nl = ctx.newline
        block = nl.join([f"{indent}devices:", f"{indent}{step}- /dev/kfd", f"{indent}{step}- /dev/dri",
                         f"{indent}group_add:", f"{indent}{step}- video"]) + nl
        _, end = y.lines(data, body.start_byte, body.end_byte)
        if not data[:end].endswith(b"\n") and not any(e.start < end == e.end for e in edits):
            block = nl + block  # the last line has no newline of its own, and stays
        edits.append(Edit(end, end, block))
        yield self.finding(ctx, first.start_byte, first.end_byte, message, edits=edits,
                           title="Give the service /dev/kfd and /dev/dri",
                           applicability=Applicability.UNSAFE if some else Applicability.SAFE)

    @staticmethod
    def _cascade(data, pair, stop):
        """The outermost pair that holds nothing but `pair`, below the service mapping `stop`."""
        current = pair
        while True:
            parent = current.parent  # the mapping holding current
            if parent is None or parent.id == stop.id or len(y.pairs(parent)) > 1:
                return current
            holder = parent.parent.parent if parent.parent is not None else None  # block_node -> pair
            if holder is None or holder.type not in y.PAIRS:
                return current
            current = holder
