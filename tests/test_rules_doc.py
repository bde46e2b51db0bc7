"""Every rule decision the code, the tests and the README cite (D1, D2, ...) is
written out in the repository, as a heading of docs/rules.md, and no test
cites a design file the repository does not have (issue 27)."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
CITED = re.compile(r"\bD(\d{1,2})\b")
HEADING = re.compile(r"^#+ D(\d{1,2}) \S", re.MULTILINE)


def cited_files() -> list[Path]:
    return [*sorted((ROOT / "triviador_nb").rglob("*.py")), *sorted((ROOT / "tests").rglob("*.py")),
            ROOT / "README.md"]


def test_every_cited_decision_is_a_heading_of_docs_rules():
    headings = {int(number) for number in HEADING.findall((ROOT / "docs" / "rules.md").read_text(encoding="utf-8"))}
    assert headings == set(range(1, 17))  # D1-D16, each once
    cited = {}
    for path in cited_files():
        for number in CITED.findall(path.read_text(encoding="utf-8")):
            cited.setdefault(int(number), path.relative_to(ROOT).as_posix())
    assert len(cited) >= 16
    assert {number: path for number, path in cited.items() if number not in headings} == {}


def test_tests_cite_the_repositorys_own_docs():
    missing = []
    for path in sorted((ROOT / "tests").rglob("*.py")):
        if path.name == Path(__file__).name:
            continue
        text = path.read_text(encoding="utf-8")
        if "DESIGN.md" in text or "DECISIONS.md" in text or "DESIGN:" in text:
            missing.append(path.name)
        missing += [f"{path.name}: {doc}" for doc in re.findall(r"docs/[\w.-]+\.md", text)
                    if not (ROOT / doc).is_file()]
    assert missing == []
