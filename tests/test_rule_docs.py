"""docs/rules/ and the list of codes in docs/codes.md are what scripts/gen_rule_docs.py makes from the code table."""
from tests.helpers import ROOT, load_script


def test_the_generated_rule_docs_are_current(monkeypatch):
    gen = load_script(monkeypatch, "gen_rule_docs")
    assert [p.relative_to(ROOT).as_posix() for p in gen.stale()] == [], "run python scripts/gen_rule_docs.py"


def test_a_page_shows_the_rule_and_its_examples(monkeypatch):
    page = (ROOT / "docs" / "rules" / "CPP021.md").read_text()
    assert page.startswith("# CPP021: RegisterStorageClass\n\nThe `register` storage class\n\n"
                           "| kind | severity | fix | defined in |\n|---|---|---|---|\n"
                           "| cpp | info | safe | [rules/cpp/register_storage_class.py](../../rules/cpp/"
                           "register_storage_class.py) |\n")
    assert "\n## Examples\n\nFlagged:\n\n```cuda\n" in page
    assert "| [INP001](rules/INP001.md) | input | warning | - | a file that does not parse cleanly |\n" in \
        (ROOT / "docs" / "codes.md").read_text()
