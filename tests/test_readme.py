"""The README's two commands are the contract with a new user and with CI."""

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def readme_commands() -> list[str]:
    text = (ROOT / "README.md").read_text()
    return re.findall(r"```sh\n(.+?)\n```", text)[:2]


def test_readme_opens_with_two_commands_run_and_test():
    run, test = readme_commands()
    assert "python3 -m venv .venv" in run and "dice-companion demo" in run
    assert "pytest" in test


def test_ci_runs_exactly_the_readme_test_command():
    _, test = readme_commands()
    ci_lines = (ROOT / ".ci" / "run").read_text().splitlines()
    assert test in ci_lines


def test_readme_engine_example_prints_what_it_says():
    block = re.search(r"```python\n(.+?)\n```", (ROOT / "README.md").read_text(), re.S).group(1)
    *setup, last = block.splitlines()
    expression, expected = last.split("#")
    namespace: dict = {}
    exec("\n".join(setup), namespace)
    assert repr(eval(expression, namespace)) == expected.strip()


def test_readme_says_how_to_save_the_screens_as_pictures():
    """The easiest way to look at the screens (``demo --record DIR``) was in ``--help`` only."""
    text = " ".join((ROOT / "README.md").read_text().split())
    assert "dice-companion demo --auto --seed 1 --record screens/" in text
