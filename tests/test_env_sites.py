"""The finder of environment-variable sites (`migrate/deploy/env.py` and its `env_*` modules) reports the exact
sites and spans of each kind of file: Python through imports and names, shell, Dockerfiles (exec form included),
YAML, ConfigMap and Secret keys and the references that follow them."""

from migrate.contexts import CONTEXTS
from migrate.deploy.env import env_sites
from migrate.deploy.env_site import Access, EnvSite
from migrate.options import Options
from migrate.packs import default_packs

OPTIONS = Options(hip_version="6.2", offload_arch=("gfx90a", "gfx940"))

def sites(kind: str, path: str, text: str) -> list[tuple]:
    ctx = CONTEXTS[kind](path, text.encode(), OPTIONS, default_packs(), "6.2")
    found = env_sites(ctx)
    for site in found:
        assert isinstance(site, EnvSite)
    return [(s.access.value, s.name, text.encode()[s.start:s.end].decode(), s.value,
             text.encode()[s.value_start:s.value_end].decode() if s.value_start is not None else None, s.quote)
            for s in found]


def test_python_sites_through_imports_and_names():
    text = ('import os as o\nimport subprocess as sp\n'
            'o.environ["A"] = "1"\nv = o.environ[\'B\']\ndel o.environ["C"]\no.putenv("D", "d")\n'
            'o.unsetenv("E")\nif "F" not in o.environ: pass\n'
            'base = dict(o.environ, G="g")\nsp.Popen(["x"], env=base)\n'
            'e = {"H": r"h"}\nsp.check_output(["y"], env=e)\ne["I"] = f"{v}"\nkey = "J"\no.environ[key] = "j"\n')
    assert sites("python", "a.py", text) == [
        ("set", "A", "A", "1", "1", '"'),
        ("read", "B", "B", None, None, ""),
        ("unset", "C", "C", None, None, ""),
        ("set", "D", "D", "d", "d", '"'),
        ("unset", "E", "E", None, None, ""),
        ("read", "F", "F", None, None, ""),
        ("set", "G", "G", "g", "g", '"'),
        ("set", "H", "H", "h", "h", '"'),
        ("set", "I", "I", None, None, ""),  # an f-string: built at run time
    ]


def test_python_without_os_import_has_no_sites():
    # `environ` here is a local dict, not os.environ
    assert sites("python", "a.py", 'environ = {}\nenviron["CUDA_HOME"] = "/x"\nprint(environ.get("CUDA_HOME"))\n') \
        == []


def test_shell_sites():
    text = ("export A=1 B='b' C=\"$HOME/c\"\nunset -v D\nunset -f E\nenv -u F G=\"g g\" cmd H=h\n"
            "docker run -e I=i --env=J=j img\necho ${K-k} ${#L} \"$M\" '$N'\nO= cmd\n")
    assert sites("shell", "s.sh", text) == [
        ("set", "A", "A", "1", "1", ""),
        ("set", "B", "B", "b", "b", "'"),
        ("set", "C", "C", None, None, ""),
        ("read", "HOME", "HOME", None, None, ""),
        ("unset", "D", "D", None, None, ""),
        ("unset", "F", "F", None, None, ""),
        ("set", "G", "G", "g g", "g g", '"'),
        ("set", "I", "I", "i", "i", ""),
        ("set", "J", "J", "j", "j", ""),
        ("read", "K", "K", "k", "k", ""),
        ("read", "L", "L", None, None, ""),
        ("read", "M", "M", None, None, ""),
        ("set", "O", "O", "", "", ""),
    ]


def test_docker_sites():
    text = 'FROM x\nENV A=1 B="b b"\nENV C c\nARG D\nARG E=e\nENV F=$D/f\nRUN G=g \\\n    cmd "$H"\n'
    assert sites("docker", "Dockerfile", text) == [
        ("set", "A", "A", "1", "1", ""),
        ("set", "B", "B", "b b", "b b", '"'),
        ("set", "C", "C", "c", "c", ""),
        ("read", "D", "D", None, None, ""),
        ("set", "E", "E", "e", "e", ""),
        ("set", "F", "F", None, None, ""),
        ("read", "D", "D", None, None, ""),
        ("set", "G", "G", "g", "g", ""),
        ("read", "H", "H", None, None, ""),
    ]


def test_yaml_sites():
    text = ("variables:\n  A: {value: 'a', description: x}\n  B: b\n"
            "env:\n  - name: C\n    value: c\n  - \"D=d\"\n  - E\n"
            "environment: production\n"
            "script:\n  - F=1 make\n  - echo $G\n")
    assert sites("yaml", "ci.yml", text) == [
        ("set", "A", "A", "a", "a", "'"),
        ("set", "B", "B", "b", "b", ""),
        ("set", "C", "C", "c", "c", ""),
        ("set", "D", "D", "d", "d", '"'),
        ("read", "E", "E", None, None, ""),
        ("set", "F", "F", "1", "1", ""),
        ("read", "G", "G", None, None, ""),
    ]


def test_sites_are_cached_per_context():
    ctx = CONTEXTS["shell"]("s.sh", b"export A=1\n", OPTIONS, default_packs(), "6.2")
    assert env_sites(ctx) is env_sites(ctx)
    assert env_sites(ctx)[0].access is Access.SET


def test_configmap_and_secret_sites():
    text = ("apiVersion: v1\nkind: List\nitems:\n"
            "- apiVersion: v1\n  kind: ConfigMap\n  metadata: {name: a}\n  data: {A: '1', \"B\": b, c.txt: x}\n"
            "---\napiVersion: v1\nkind: Secret\nmetadata:\n  name: s\nstringData:\n  C: c\ndata:\n  D: ZA==\n"
            "---\napiVersion: example.org/v1\nkind: Settings\nmetadata: {name: x}\ndata:\n  E: e\n")
    assert sites("yaml", "k.yaml", text) == [
        ("set", "A", "A", "1", "1", "'"),
        ("set", "B", "B", "b", "b", ""),
        ("set", "C", "C", "c", "c", ""),  # stringData; a Secret's data is base64, not read
    ]


def test_key_refs_in_the_same_file_follow_the_key():
    text = ("apiVersion: v1\nkind: ConfigMap\nmetadata: {name: cm}\ndata:\n  CUDA_HOME: /usr/local/cuda\n---\n"
            "apiVersion: v1\nkind: Pod\nmetadata: {name: p}\nspec:\n  containers:\n  - name: c\n    image: x\n"
            "    env:\n    - name: HOME_A\n      valueFrom: {configMapKeyRef: {name: cm, key: \"CUDA_HOME\"}}\n"
            "    - name: HOME_B\n      valueFrom: {configMapKeyRef: {name: other, key: CUDA_HOME}}\n"
            "    - name: HOME_C\n      valueFrom: {secretKeyRef: {name: cm, key: CUDA_HOME}}\n")
    ctx = CONTEXTS["yaml"]("p.yaml", text.encode(), OPTIONS, default_packs(), "6.2")
    (site,) = [s for s in env_sites(ctx) if s.name == "CUDA_HOME"]
    assert [text.encode()[a:b].decode() for a, b in site.also] == ["CUDA_HOME"]
    assert text.encode().rfind(b'"CUDA_HOME"') + 1 == site.also[0][0]  # only the ConfigMap cm's key, inside quotes


def test_docker_exec_form_sites():
    text = ('FROM x\n'
            'RUN ["sh", "-c", "A=\\"a b\\" cmd \\u0024B && export C=\\u0063"]\n'
            'CMD ["/usr/bin/env", "bash", "-lc", "D=1 run"]\n'
            'ENTRYPOINT ["bash", "-c"]\n'
            'HEALTHCHECK CMD ["sh", "-c", "test -n \\"$E\\""]\n'
            'RUN ["python", "-c", "F=1"]\n'
            'RUN ["sh", "-c", "G=1 \\x"]\n')
    assert sites("docker", "Dockerfile", text) == [
        ("set", "A", "A", "a b", "a b", '"'),
        ("read", "B", "B", None, None, ""),
        ("set", "C", "C", "c", "\\u0063", ""),  # the value's span covers the escape that writes it
        ("set", "D", "D", "1", "1", ""),
        ("read", "E", "E", None, None, ""),
    ]
