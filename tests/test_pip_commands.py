"""migrate/deploy/pip_commands.py: requirements and index URLs of `pip install` lines, exact spans."""
from migrate.deploy.context import DockerContext, ShellContext
from migrate.deploy.dependencies import dependencies
from migrate.options import Options
from migrate.packs import default_packs

DOCKERFILE = (b'FROM python:3.11\n'
              b'RUN pip install --no-cache-dir -r req.txt torch==2.3.1+cu121 \\\n'
              b'    --index-url https://w.example.org/whl/cu121 "nvidia-cublas-cu12==12.1" && echo pip install ok\n'
              b'RUN python3 -m pip install --target=/opt/x $EXTRA ./local cupy-cuda12x; uv pip install -i=https://m/cu118 x\n'
              b'RUN ["pip", "install", "exec-form-is-not-read"]\n')


def read(ctx):
    deps, urls = dependencies(ctx)
    data = ctx.data
    return ([(d.name, [data[v.start:v.end].decode() for v in d.versions], data[d.drop[0]:d.drop[1]].decode())
             for d in deps], [data[u.start:u.end].decode() for u in urls])


def test_dockerfile_run_lines():
    ctx = DockerContext("Dockerfile", DOCKERFILE, Options(), default_packs(), "6.2")
    assert read(ctx) == ([("torch", ["2.3.1+cu121"], " torch==2.3.1+cu121"),
                          ("nvidia-cublas-cu12", ["12.1"], ' "nvidia-cublas-cu12==12.1"'),
                          ("cupy-cuda12x", [], " cupy-cuda12x"),
                          ("x", [], " x")],
                         ["https://w.example.org/whl/cu121", "https://m/cu118"])


def test_shell_script_commands_only():
    script = b'#!/bin/sh\necho "pip install torch+cu121 is how"\npip3 install torchvision==0.18.1+cu121 | tee log\n'
    ctx = ShellContext("setup.sh", script, Options(), default_packs(), "6.2")
    assert read(ctx) == ([("torchvision", ["0.18.1+cu121"], " torchvision==0.18.1+cu121")], [])


def test_yaml_run_blocks():
    from migrate.deploy.context import YamlContext
    workflow = (b"jobs:\n  test:\n    steps:\n      - run: pip install torch==2.4.0+cu124\n"
                b"      - name: deps\n        run: |\n          python -m pip install -U pip\n"
                b"          pip install --extra-index-url https://w.example.org/whl/cu124 torchvision\n"
                b"      - name: note\n        with:\n          text: pip install nothing-here\n")
    ctx = YamlContext("ci.yml", workflow, Options(), default_packs(), "6.2")
    assert read(ctx) == ([("torch", ["2.4.0+cu124"], " torch==2.4.0+cu124"), ("pip", [], " pip"),
                          ("torchvision", [], " torchvision")],
                         ["https://w.example.org/whl/cu124"])


def test_dockerfile_exec_form_with_a_shell():
    dockerfile = (b'FROM python:3.11\n'
                  b'RUN ["/bin/sh", "-c", "pip install \\"torch==2.3.1+cu121\\" torch\\u0076ision==0.18.1+cu121 '
                  b'--index-url https://w.example.org/whl/cu121 && python -c \\"print(1)\\""]\n'
                  b'CMD ["bash", "-lc", "uv pip install --system nvidia-nccl-cu12 && exec python app.py"]\n'
                  b'ENTRYPOINT ["pip", "install", "plain-exec-form-runs-no-shell"]\n')
    ctx = DockerContext("Dockerfile", dockerfile, Options(), default_packs(), "6.2")
    # torchvision is written with an escape: its bytes are not its text, so it is not read; the drop span of a
    # requirement in escaped quotes takes the escapes with it
    assert read(ctx) == ([("torch", ["2.3.1+cu121"], ' \\"torch==2.3.1+cu121\\"'),
                          ("nvidia-nccl-cu12", [], " nvidia-nccl-cu12")],
                         ["https://w.example.org/whl/cu121"])
