"""rules/data/coop_groups.toml (made by scripts/gen_coop_groups.py from HIP's headers), which CPP013 reads."""
import tomllib

from migrate.packs import rules_root
from tests.helpers import load_script



def test_the_script_lists_what_each_release_lacks(monkeypatch):
    gen = load_script(monkeypatch, "gen_coop_groups")
    old = "class tile { unsigned size() const; void sync(); };\ntile tiled_partition(const tile& g, unsigned n);"
    new = old + "\nunsigned meta_group_rank() const { return rank; }"
    monkeypatch.setattr(gen, "MEMBERS", ["size", "meta_group_rank", "num_threads"])
    monkeypatch.setattr(gen, "FUNCTIONS", ["tiled_partition", "this_cluster"])
    text = gen.render([("5.2", old), ("5.7", new)])
    assert text.split("[members]\n")[1] == ('meta_group_rank = { since = "5.7" }\nnum_threads = {}\n\n'
                                            '[functions]\nthis_cluster = {}\n')
    assert 'releases = ["5.2", "5.7"]' in text
    # a declaration or a plain call counts; a longer name, or a call through an object, does not
    assert gen.present("size", "unsigned size () const;")
    assert not gen.present("size", "x.size_bytes(); y.size();")


def test_the_installed_hip_agrees_with_the_data(monkeypatch, hipcc):
    """Against /usr/include/hip (HIP 5.2 here): what the data says 5.2 lacks is not in its headers, and every
    member and function it does not list is."""
    gen = load_script(monkeypatch, "gen_coop_groups")
    data = tomllib.loads((rules_root() / "data" / "coop_groups.toml").read_text())
    installed = gen.cg_text(gen.Path("/usr/include"))
    release = gen.version_key(gen.installed_release(gen.Path("/usr/include/hip")))
    for table, names in (("members", gen.MEMBERS), ("functions", gen.FUNCTIONS)):
        rows = data[table]
        missing = {n for n, row in rows.items()
                   if not row.get("since") or tuple(int(x) for x in row["since"].split(".")) > release}
        assert all(not gen.present(n, installed) for n in missing), table
        assert all(gen.present(n, installed) for n in names if n not in rows), table
    assert {"meta_group_rank", "num_threads", "num_blocks"} <= set(data["members"])
    assert {"this_cluster", "reduce", "memcpy_async"} <= set(data["functions"])
