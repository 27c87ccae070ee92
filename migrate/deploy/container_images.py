"""Where a deployment file names the container images it builds on or runs, with byte spans: one reader for the
image rules (PY050, PY051), whatever the file.

- Dockerfile (tree-sitter-dockerfile): the image of each `FROM` (`FROM --platform=... <image> AS <name>`), and the
  default of an `ARG` that a `FROM` builds on (`ARG BASE_IMAGE=nvcr.io/nvidia/pytorch:24.01-py3` ... `FROM
  ${BASE_IMAGE}`).
- Shell text (shell scripts; a Dockerfile's `RUN`/`CMD`/`ENTRYPOINT`; a CI step's `run:`/`script:`): the images of the
  families the image rules know (`nvidia/cuda`, `nvcr.io/nvidia/*`, `pytorch/pytorch`, `tensorflow/tensorflow`,
  `vllm/vllm-openai`) standing as a whole word: `docker run ... nvcr.io/nvidia/pytorch:24.01-py3`, a bash array of
  images, `--build-arg BASE=...`. Comments are not read in shell scripts.
- Kubernetes manifests: `image:` of each item of `containers`, `initContainers` and `ephemeralContainers` in a pod
  spec: a Pod's `spec`, and the `spec` of any `template:` that holds containers below an object with `apiVersion`
  and `kind` (Deployment, StatefulSet, DaemonSet, ReplicaSet, Job, CronJob's `jobTemplate`, PodTemplate, and custom
  resources built on pod templates: PyTorchJob, RayCluster, JobSet, ...); the items of a `kind: List` count too.
- docker compose: `image:` of each service under a top-level `services:` mapping.
- GitHub Actions workflows: `container:` of each job (the image as a string, or `container: {image: ...}`) and
  `image:` of each of its `services:`.
- GitLab CI (a document with `stages:` or a job with `script:`): `image:` (a string or `{name: ...}`) and the items
  of a `services:` list (strings or `{name: ...}`), at the top, under `default:` and in each job.

- Helm values files (documents that are no Kubernetes object): a mapping with `repository:` and `tag:` (and maybe
  `registry:`) is an image; its reference is put together from them and is reported, never edited (`editable` is
  false: the fix would span several keys).

Other `image:` keys (Argo workflow templates) are not read. In YAML the reference is the
scalar's text, quotes excluded; a scalar with escapes, a doubled `''` or a line break is reported but not edited
(`editable`), and so is a reference built at run time (`$VAR`, `${VAR}`, `${{ matrix.image }}`, `{{ .Values.x }}`),
which `built` marks. Anchors, aliases and tags are left as they are.
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Iterator

import tree_sitter

from migrate.deploy import docker_shell, yaml_shell
from migrate.deploy import yaml_nodes as y
from migrate.deploy.context import walk
from migrate.deploy.yaml_shell import SCRIPT_KEYS

CONTAINER_KEYS = ("containers", "initContainers", "ephemeralContainers")
DOCKER_ACTION = "docker://"  # a GitHub Actions step that runs an image: `uses: docker://nvidia/cuda:12.4.1-base-...`


@dataclass(frozen=True)
class ImageRef:
    text: str  # the reference as written (`nvidia/cuda:12.1.1-devel-ubuntu22.04`)
    name: str  # without tag or digest (`nvidia/cuda`)
    tag: str  # without its colon; "" when there is none
    digest: bool  # pinned with `@sha256:...`
    built: bool  # holds a part filled in at build or run time (an ARG, an environment or template variable)
    start: int  # bytes of the reference in the file (inside its quotes)
    end: int
    editable: bool  # the bytes at start:end are the text as written, so a new reference can replace them
    syntax: str  # "docker" (FROM, or the ARG a FROM builds on), "yaml" (image:) or "shell" (a word of shell text)


def image_refs(ctx) -> list[ImageRef]:
    """The image references of a Dockerfile or YAML context, in document order (found once: three rules ask)."""
    return ctx.once("image_refs", _image_refs)


def _image_refs(ctx) -> list[ImageRef]:
    if ctx.kind == "docker":
        return sorted([*_docker_refs(ctx), *_arg_refs(ctx), *_shell_refs(ctx, docker_shell.shell_texts(ctx))],
                      key=lambda ref: ref.start)
    if ctx.kind == "shell":
        return list(_bash_refs(ctx)) if KNOWN_IMAGES.search(ctx.data) else []
    if ctx.kind == "yaml":
        if not any(word in ctx.data for word in (b"cuda", b"pytorch", b"nvcr.io", b"vllm", b"tensorflow")):
            return []  # names no image family the rules know: the tree is not walked
        refs = [_yaml_ref(ctx.data, node) for node in yaml_image_nodes(ctx.data, ctx.root)]
        refs += _helm_refs(ctx.data, ctx.root)
        taken = {ref.start for ref in refs if ref is not None}
        refs += [ref for ref in _shell_refs(ctx, yaml_shell.shell_texts(ctx, SCRIPT_KEYS)) if ref.start not in taken]
        return sorted((ref for ref in refs if ref is not None), key=lambda ref: ref.start)
    return []


# -- images named in shell text: `docker run ... nvcr.io/nvidia/pytorch:24.01-py3`, bash arrays ----------------

# The image families the image rules know (PY050, PY051, PY053), as a whole word: only these are read from shell
# text, where an image is one word among many.
KNOWN_IMAGES = re.compile(rb"(?<![\w./:@-])(?:(?:docker\.io/)?(?:library/)?(?:nvidia/cuda|pytorch/pytorch|"
                          rb"tensorflow/tensorflow|vllm/vllm-openai)|nvcr\.io/nvidia/[\w.-]+)(?::[\w.${}-]+)?"
                          rb"(?:@sha256:[0-9a-f]+)?(?![\w./:@-])")


def _word_ref(text: str, start: int, syntax: str, editable: bool = True) -> ImageRef:
    name, tag, digest = split_reference(text)
    return ImageRef(text, name, tag, digest, "$" in text, start, start + len(text.encode("utf-8", "surrogateescape")), editable, syntax)


def _shell_refs(ctx, texts) -> Iterator[ImageRef]:
    """Known images named in shell text (a Dockerfile's RUN, a CI step's `run:`): `docker run`, `docker pull`,
    `--build-arg BASE=...`, variables."""
    for shell in texts:
        for match in KNOWN_IMAGES.finditer(shell.text):
            if shell.exact(match.start(), match.end()):
                yield _word_ref(match[0].decode(), shell.at(match.start()), "shell")


def _bash_refs(ctx) -> Iterator[ImageRef]:
    """Known images that are a whole word, string or array element of a shell script (comments are not read)."""
    for node in ctx.nodes("word", "string_content", "raw_string"):
        start, end = node.start_byte, node.end_byte
        if node.type == "raw_string":
            start, end = start + 1, end - 1
        match = KNOWN_IMAGES.fullmatch(ctx.data, start, end)
        if match is not None:
            yield _word_ref(match[0].decode(), start, "shell")


def _arg_refs(ctx) -> Iterator[ImageRef]:
    """`ARG BASE_IMAGE=nvcr.io/nvidia/pytorch:24.01-py3` whose variable a `FROM $BASE_IMAGE` builds on: the image is
    the ARG's default (a `--build-arg` may replace it)."""
    used = set()
    for instruction in ctx.nodes("from_instruction"):
        for expansion in walk(instruction, "expansion"):
            variable = next((c for c in expansion.named_children if c.type == "variable"), None)
            if variable is not None:
                used.add(ctx.node_text(variable))
    if not used:
        return
    for arg in ctx.nodes("arg_instruction"):
        name, default = arg.child_by_field_name("name"), arg.child_by_field_name("default")
        if name is None or default is None or ctx.node_text(name) not in used:
            continue
        start, end = default.start_byte, default.end_byte
        if default.type in ("double_quoted_string", "single_quoted_string"):
            start, end = start + 1, end - 1
        text = ctx.data[start:end].decode("utf-8", "surrogateescape")
        if text and not any(c in text for c in " \t\\\"'") and ("/" in text or ":" in text):
            yield _word_ref(text, start, "docker", not default.named_children)


# -- Dockerfile ----------------------------------------------------------------------------------------------

def _docker_refs(ctx) -> Iterator[ImageRef]:
    for instruction in ctx.nodes("from_instruction"):
        spec = next((c for c in instruction.children if c.type == "image_spec"), None)
        if spec is None:
            continue
        name = next((c for c in spec.children if c.type == "image_name"), None)
        if name is None:
            continue
        tag = next((c for c in spec.children if c.type == "image_tag"), None)
        digest = any(c.type == "image_digest" for c in spec.children)
        built = any(True for _ in walk(spec, "expansion"))
        yield ImageRef(ctx.node_text(spec), ctx.node_text(name), ctx.node_text(tag)[1:] if tag is not None else "",
                       digest, built, spec.start_byte, spec.end_byte, True, "docker")


# -- YAML ----------------------------------------------------------------------------------------------------

def split_reference(text: str) -> tuple[str, str, bool]:
    """(name, tag, has digest) of an image reference; a registry's port (`host:5000/x`) is not a tag."""
    rest, at, _ = text.partition("@")
    colon, slash = rest.rfind(":"), rest.rfind("/")
    if colon > slash:
        return rest[:colon], rest[colon + 1:], bool(at)
    return rest, "", bool(at)


def _yaml_ref(data: bytes, node: tree_sitter.Node) -> ImageRef | None:
    while node.type in ("flow_node", "block_node") and node.named_child_count == 1:
        node = node.named_children[0]
    if node.type not in ("plain_scalar", "double_quote_scalar", "single_quote_scalar"):
        return None
    raw = data[node.start_byte:node.end_byte].decode("utf-8", "surrogateescape")
    start, end = node.start_byte, node.end_byte
    text = raw
    if node.type != "plain_scalar":
        text, start, end = raw[1:-1], start + 1, end - 1
    editable = "\n" not in text and not (node.type == "double_quote_scalar" and "\\" in text) \
        and not (node.type == "single_quote_scalar" and "''" in text)
    if text.startswith(DOCKER_ACTION):
        text, start = text[len(DOCKER_ACTION):], start + len(DOCKER_ACTION)
    name, tag, digest = split_reference(text.strip())
    built = "$" in text or "{{" in text
    return ImageRef(text, name, tag, digest, built, start, end, editable and text == text.strip(), "yaml")


def yaml_image_nodes(data: bytes, root: tree_sitter.Node) -> Iterator[tree_sitter.Node]:
    """The value nodes of the image references of a YAML stream (Kubernetes, compose, GitHub Actions), in document
    order."""
    found: list[tree_sitter.Node] = []
    for _, top in y.kubernetes_objects(data, root):
        for spec in _pod_specs(data, top):
            for key in CONTAINER_KEYS:
                containers = y.get(data, spec, key)
                for container in y.items(y.value_node(containers)) if containers is not None else []:
                    found.extend(_image(data, container))
    for top in y.documents(root):
        if y.get(data, top, "apiVersion") is not None and y.get(data, top, "kind") is not None:
            continue
        services = y.get(data, top, "services")
        for service in y.pairs(y.value_node(services)) if services is not None else []:  # compose
            found.extend(_image(data, y.value_node(service)))
        if _gitlab_ci(data, top):
            for body in [top, *(y.value_node(pair) for pair in y.pairs(top))]:
                found.extend(_gitlab_images(data, body))
            continue
        jobs = y.get(data, top, "jobs")
        for job in y.pairs(y.value_node(jobs)) if jobs is not None else []:  # GitHub Actions
            body = y.value_node(job)
            container = y.get(data, body, "container")
            if container is not None:
                value = y.value_node(container)
                found.extend([value] if y.scalar(data, value) is not None else _image(data, value))
            job_services = y.get(data, body, "services")
            for service in y.pairs(y.value_node(job_services)) if job_services is not None else []:
                found.extend(_image(data, y.value_node(service)))
            steps = y.get(data, body, "steps")
            for step in y.items(y.value_node(steps)) if steps is not None else []:
                uses = y.get(data, step, "uses")
                if uses is not None and (y.scalar(data, y.value_node(uses)) or "").startswith(DOCKER_ACTION):
                    found.append(y.value_node(uses))
    return iter(sorted(found, key=lambda n: n.start_byte))


def _helm_refs(data: bytes, root: tree_sitter.Node) -> list[ImageRef]:
    """Helm-style image blocks (`repository:` + `tag:`, maybe `registry:`) of the documents that are no Kubernetes
    object, reported at the repository's scalar."""
    found = []
    for top in y.documents(root):
        if y.get(data, top, "apiVersion") is not None and y.get(data, top, "kind") is not None:
            continue
        for node in walk(top, "block_mapping", "flow_mapping"):
            repository, tag = y.get(data, node, "repository"), y.get(data, node, "tag")
            if repository is None or tag is None:
                continue
            repo_text, tag_text = y.scalar(data, y.value_node(repository)), y.scalar(data, y.value_node(tag))
            if not repo_text or not tag_text:
                continue
            registry = y.field(data, node, "registry")
            name = f"{registry}/{repo_text}" if registry else repo_text
            value = y.value_node(repository)
            built = "$" in name + tag_text or "{{" in name + tag_text
            found.append(ImageRef(f"{name}:{tag_text}", name, tag_text, False, built, value.start_byte,
                                  value.end_byte, False, "yaml"))
    return found


def _gitlab_ci(data: bytes, top: tree_sitter.Node) -> bool:
    """A GitLab CI document: `stages:`, or a top-level job with `script:` (and no GitHub `jobs:`)."""
    if y.mapping(top) is None or y.get(data, top, "jobs") is not None:
        return False
    if y.get(data, top, "stages") is not None:
        return True
    return any(y.get(data, y.value_node(pair), "script") is not None for pair in y.pairs(top)
               if y.mapping(y.value_node(pair)) is not None)


def _gitlab_images(data: bytes, body: tree_sitter.Node | None) -> list[tree_sitter.Node]:
    """`image:` and the `services:` list of the file's top, its `default:` or one job (compose's `services:` is a
    mapping, GitLab's a list)."""
    if body is None or y.mapping(body) is None:
        return []
    found = []
    image = y.get(data, body, "image")
    if image is not None:
        found.extend(_named(data, y.value_node(image)))
    services = y.get(data, body, "services")
    for item in y.items(y.value_node(services)) if services is not None else []:
        found.extend(_named(data, item))
    return found


def _named(data: bytes, node: tree_sitter.Node | None) -> list[tree_sitter.Node]:
    """GitLab's image forms: the reference as a string, or a mapping with `name:`."""
    if node is None:
        return []
    if y.scalar(data, node) is not None:
        return [node]
    pair = y.get(data, node, "name") if y.mapping(node) is not None else None
    value = y.value_node(pair) if pair is not None else None
    return [value] if value is not None else []


def _image(data: bytes, node: tree_sitter.Node | None) -> list[tree_sitter.Node]:
    """The `image:` value of the mapping `node` holds."""
    if node is None or y.mapping(node) is None:
        return []
    pair = y.get(data, node, "image")
    value = y.value_node(pair) if pair is not None else None
    return [value] if value is not None else []


def _pod_specs(data: bytes, top: tree_sitter.Node) -> Iterator[tree_sitter.Node]:
    """The pod specs of a Kubernetes object: a Pod's `spec`; any `template:` below it whose `spec` holds containers."""
    if y.field(data, top, "kind") == "Pod":
        spec = y.get(data, top, "spec")
        if spec is not None:
            yield y.value_node(spec)
    for pair in walk(top, *y.PAIRS):
        if y.key(data, pair) != "template":
            continue
        spec = y.get(data, y.value_node(pair), "spec")
        inner = y.value_node(spec) if spec is not None else None
        if inner is not None and any(y.get(data, inner, key) is not None for key in CONTAINER_KEYS):
            yield inner
