"""The three game packages share one layout and read one way (issue 16): role modules below, the engine that
composes them, view and persistence on top of the engine, the state class on top of all; no import circles,
not even ones hidden inside functions or behind ``TYPE_CHECKING``."""

from __future__ import annotations

import ast
import tomllib
from pathlib import Path

import pytest
import setuptools

CORE = Path(__file__).resolve().parent.parent / "core"
GAMES = ("thousand", "deberts", "kozel")
COMMON = {"__init__", "options", "deal", "play", "scoring", "engine", "view", "persist", "state", "playout"}
ROLES = {"cards", "tiles", "options", "deal", "bidding", "combinations", "chain", "play", "scoring"}
ABOVE_ENGINE = {"view", "persist", "state", "__init__", "playout"}
OPTIONAL = {"texts"}  # event sentences, moving to core/i18n


def imports_of(game: str) -> dict[str, set[str]]:
    """Module -> the modules of the same package it imports (anywhere in the file)."""
    graph: dict[str, set[str]] = {}
    for path in (CORE / game).glob("*.py"):
        deps: set[str] = set()
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ImportFrom) and node.module:
                if node.module.startswith(f"core.{game}."):
                    deps.add(node.module.split(".")[2])
                elif node.module == f"core.{game}":
                    deps |= {a.name for a in node.names if (CORE / game / f"{a.name}.py").exists()}
        graph[path.stem] = deps
    return graph


@pytest.mark.parametrize("game", GAMES)
def test_every_package_has_the_common_modules(game: str) -> None:
    modules = set(imports_of(game))
    assert modules >= COMMON
    assert ("tiles" if game == "kozel" else "cards") in modules
    assert modules - COMMON <= ROLES | OPTIONAL  # nothing else: whoever knows one package knows all three


@pytest.mark.parametrize("game", GAMES)
def test_the_package_reads_one_way(game: str) -> None:
    graph = imports_of(game)
    for module, deps in graph.items():
        if module in ROLES:
            assert not deps & ({"engine"} | ABOVE_ENGINE), f"{module} reaches up to {deps}"
        if module == "engine":
            assert not deps & ABOVE_ENGINE, f"the engine reaches up to {deps & ABOVE_ENGINE}"
        if module in ("view", "persist"):
            assert not deps & {"state", "__init__", "view", "persist"} - {module}, f"{module}: {deps}"
    done: set[str] = set()

    def visit(module: str, path: tuple[str, ...]) -> None:
        assert module not in path, f"import circle: {' -> '.join((*path, module))}"
        if module in done:
            return
        for dep in graph.get(module, ()):
            visit(dep, (*path, module))
        done.add(module)

    for module in graph:
        visit(module, ())


@pytest.mark.parametrize("game", GAMES)
def test_no_imports_hidden_inside_functions(game: str) -> None:
    for path in (CORE / game).glob("*.py"):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
                inner = [n for n in ast.walk(node) if isinstance(n, ast.Import | ast.ImportFrom)]
                assert not inner, f"{path.name}: an import inside {node.name}()"
            if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test):
                raise AssertionError(f"{path.name}: an import behind TYPE_CHECKING")


# Test doubles and gallery data stay out of the product (issue 25 point 4): the wheel ships core, renderers and bot
# (what ``[tool.setuptools.packages.find]`` in pyproject.toml selects); none of it imports testkit, tests or bench;
# bench and testkit import no test module.

ROOT = CORE.parent
NOT_SHIPPED = ("testkit", "tests", "bench")


def modules_imported(path: Path) -> set[str]:
    """Every module a file imports, anywhere in it (inside functions and behind ``TYPE_CHECKING`` too)."""
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found |= {a.name for a in node.names}
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            found.add(node.module)
    return found


def shipped_packages() -> list[str]:
    find = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["tool"]["setuptools"]["packages"]
    return setuptools.find_packages(str(ROOT), include=find["find"]["include"], exclude=find["find"].get("exclude", ()))


def test_the_wheel_ships_core_renderers_and_bot_only() -> None:
    packages = shipped_packages()
    assert {p.split(".")[0] for p in packages} == {"core", "renderers", "bot"}
    assert {"bot.discord", "bot.storage", "renderers", "core.thousand"} <= set(packages)


def test_shipped_modules_import_no_test_code() -> None:
    for package in shipped_packages():
        for path in (ROOT / package.replace(".", "/")).glob("*.py"):
            bad = {m for m in modules_imported(path) if m.split(".")[0] in NOT_SHIPPED}
            assert not bad, f"{path.relative_to(ROOT)} imports {bad}: the wheel does not ship them"


@pytest.mark.parametrize("folder", ["bench", "testkit"])
def test_bench_and_testkit_import_no_test_module(folder: str) -> None:
    for path in (ROOT / folder).glob("*.py"):
        bad = {m for m in modules_imported(path) if m.split(".")[0] == "tests"}
        assert not bad, f"{path.relative_to(ROOT)} imports {bad}: test doubles it needs belong in testkit/"


# The Discord adapter reads one way (issue 25 point 5): what the client and the port both need (an interaction's
# handle, the live interactions remembered) lives in ``bot.discord.interactions``; neither holds the other back.

DISCORD = ROOT / "bot" / "discord"


def discord_imports() -> dict[str, set[str]]:
    """Module of ``bot/discord`` -> the modules of the same folder it imports (anywhere in the file)."""
    graph: dict[str, set[str]] = {}
    for path in DISCORD.glob("*.py"):
        deps: set[str] = set()
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ImportFrom) and node.module == "bot.discord":
                deps |= {a.name for a in node.names if (DISCORD / f"{a.name}.py").exists()}
            elif isinstance(node, ast.ImportFrom) and (node.module or "").startswith("bot.discord."):
                deps.add(node.module.split(".")[2])
            elif isinstance(node, ast.Import):
                deps |= {a.name.split(".")[2] for a in node.names if a.name.startswith("bot.discord.")}
        graph[path.stem] = deps - {path.stem}
    return graph


def test_the_discord_adapter_has_no_import_circle() -> None:
    graph = discord_imports()
    assert {"client", "port", "items", "interactions"} <= set(graph)
    done: set[str] = set()

    def visit(module: str, path: tuple[str, ...]) -> None:
        assert module not in path, f"import circle: {' -> '.join((*path, module))}"
        if module in done:
            return
        for dep in graph.get(module, ()):
            visit(dep, (*path, module))
        done.add(module)

    for module in graph:
        if module != "__init__":  # the package's front door imports its parts; none of them imports it
            visit(module, ())
    assert not {m for m, deps in graph.items() if "__init__" in deps}
    assert "port" not in graph["client"] and "client" not in graph["items"]
