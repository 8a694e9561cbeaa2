"""One place per fence kind: the registry, mkdocs.yml's list and the derived names agree."""

from __future__ import annotations

import importlib
import pickle
from pathlib import Path
from typing import Any

import yaml

from lessonkit.fences import ALIASES, FENCES, exercise_fences, kind_of, names
from lessonkit.fences import mermaid as mermaid_fence
from lessonkit.fences.progress import exercise_pattern

ROOT = Path(__file__).resolve().parents[2]


class _Loader(yaml.SafeLoader):
    """Reads mkdocs.yml; ``!!python/name:x`` becomes the text ``x`` (nothing is imported)."""


_Loader.add_multi_constructor("tag:yaml.org,2002:python/name:", lambda loader, tag, node: tag)
_Loader.add_constructor("!ENV", lambda loader, node: None)


def custom_fences() -> list[dict[str, Any]]:
    config = yaml.load((ROOT / "mkdocs.yml").read_text(encoding="utf-8"), Loader=_Loader)
    for extension in config["markdown_extensions"]:
        if isinstance(extension, dict) and "pymdownx.superfences" in extension:
            fences: list[dict[str, Any]] = extension["pymdownx.superfences"]["custom_fences"]
            return fences
    raise AssertionError("mkdocs.yml has no pymdownx.superfences")


def test_mkdocs_lists_exactly_the_registrys_fences() -> None:
    listed = [fence["name"] for fence in custom_fences()]
    known = [*names(), mermaid_fence.LANGUAGE]
    # A new console kind (a pysim folder with a konsole.py descriptor) needs its line here.
    missing = sorted(set(known) - set(listed))
    assert not missing, f"mkdocs.yml's superfences custom_fences lack: {missing}"
    assert sorted(listed) == sorted(known)
    assert len(listed) == len(set(listed))


def test_every_listed_fence_goes_through_the_registry() -> None:
    for fence in custom_fences():
        if fence["name"] == mermaid_fence.LANGUAGE:
            continue
        assert fence["validator"] == "lessonkit.fences.validate", fence["name"]
        assert fence["format"] == "lessonkit.fences.format_block", fence["name"]


def test_every_listed_function_pickles_by_its_name() -> None:
    """Zensical pickles the Markdown configuration, validators and formatters included."""
    for fence in custom_fences():
        for role in ("validator", "format"):
            module, _, name = fence[role].rpartition(".")
            function = getattr(importlib.import_module(module), name)
            assert pickle.loads(pickle.dumps(function)) is function, fence[role]


def test_every_alias_names_one_current_fence() -> None:
    # (That every entry of FENCES is a FenceKind is its type: mypy --strict checks it.)
    assert set(ALIASES.values()) <= set(FENCES)
    assert not set(ALIASES) & set(FENCES)
    for old, new in ALIASES.items():
        assert kind_of(old) is FENCES[new]


def test_the_progress_overview_counts_the_registrys_exercises() -> None:
    assert exercise_fences() == [
        "vorhersage",
        "aufgabe",
        "konsolen-aufgabe",
        "quiz",
        "herausforderung",
    ]
    pattern = exercise_pattern(exercise_fences())
    text = (
        '```quiz id="a"\n```\n```konsolen-aufgabe kind="log" id="b"\n```\n'
        '```aufgabe-neu id="c"\n```\n```pycell id="d"\n```\n'
    )
    assert pattern.findall(text) == ["a", "b"]
