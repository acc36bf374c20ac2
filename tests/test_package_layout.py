"""The three game packages share one layout and read one way (issue 16): role modules below, the engine that
composes them, view and persistence on top of the engine, the state class on top of all; no import circles,
not even ones hidden inside functions or behind ``TYPE_CHECKING``."""

from __future__ import annotations

import ast
import sys
import tomllib
from pathlib import Path

import pytest
import setuptools

CORE = Path(__file__).resolve().parent.parent / "core"
GAMES = ("thousand", "deberts", "kozel")
COMMON = {"__init__", "options", "deal", "play", "scoring", "engine", "view", "persist", "state", "playout"}
ROLES = {"cards", "tiles", "actions", "options", "deal", "bidding", "combinations", "chain", "play", "scoring"}
ABOVE_ENGINE = {"fastpath", "view", "persist", "state", "__init__", "playout"}
OPTIONAL = {"fastpath"}  # a hand-written hot path of the engine


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


# ``bot/`` reads one way too (issue 25 points 1 and 6): shared values and the storage at the bottom, the button and
# message helpers above them, the application's services above those (each importing only the ones before it in
# ``APP_ORDER``), the platform adapters above the application, ``python -m bot`` on top. An import inside a function
# or behind ``TYPE_CHECKING`` counts like any other: it may not hide a circle.

BOT = CORE.parent / "bot"
APP_ORDER = (
    "results",
    "outbox",
    "context",
    "people",
    "publishing",
    "rounds",
    "turns",
    "lobby",
    "achievements",
    "seasons",
    "info",
    "daily",
    "notify",
    "application",
    "__init__",
)
BOTTOM = {
    "bot",
    "bot.port",
    "bot.config",
    "bot.notice",
    "bot.texts",
    "bot.tablepass",
    "bot.frames",
    "bot.solo",
    "bot.keys",  # one key per purpose, from the bot token
    "bot.metrics",  # the Prometheus metrics every layer counts into
    "bot.written",
    "bot.seasons",
}  # and bot.storage.*
HELPERS = (
    {"bot.payloads", "bot.live"},
    {"bot.keyboards", "bot.prompts", "bot.messages", "bot.hints", "bot.daily", "bot.achievements"},
)


def bot_modules() -> dict[str, Path]:
    out = {}
    for path in BOT.rglob("*.py"):
        parts = path.relative_to(BOT.parent).with_suffix("").parts
        out[".".join(parts[:-1] if parts[-1] == "__init__" else parts)] = path
    return out


def bot_imports() -> dict[str, set[str]]:
    """Module -> the ``bot`` modules it imports anywhere in the file (``from bot.app import results`` is an import
    of ``bot.app.results``)."""
    modules = bot_modules()
    graph: dict[str, set[str]] = {}
    for name, path in modules.items():
        deps: set[str] = set()
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Import):
                deps |= {a.name for a in node.names if a.name in modules}
            elif isinstance(node, ast.ImportFrom) and node.module in modules and node.level == 0:
                for alias in node.names:
                    sub = f"{node.module}.{alias.name}"
                    deps.add(sub if sub in modules else node.module)
        graph[name] = deps - {name}
    return graph


def bot_layer(module: str) -> int:
    if module == "bot.__main__":
        return 5
    if module == "bot.app" or module.startswith("bot.app."):
        return 3
    if module in BOTTOM or module == "bot.storage" or module.startswith("bot.storage."):
        return 0
    for level, names in enumerate(HELPERS, 1):
        if module in names:
            return level
    return 4  # a platform adapter (bot.telegram, bot.discord, bot.playground, …) or a test double


def bot_package(module: str) -> str:
    return ".".join(module.split(".")[:2])


def circles(graph: dict[str, set[str]], within: str) -> list[str]:
    found: list[str] = []
    done: set[str] = set()

    def visit(module: str, path: tuple[str, ...]) -> None:
        if module in path:
            found.append(" -> ".join((*path[path.index(module) :], module)))
            return
        if module in done:
            return
        for dep in sorted(graph.get(module, ())):
            visit(dep, (*path, module))
        done.add(module)

    for module in sorted(graph):
        if bot_package(module) == within or (within == "bot" and bot_layer(module) < 4):
            visit(module, ())
    return found


def bot_packages() -> list[str]:
    """Every package of ``bot`` with modules of its own: the adapters (``bot.discord``, ``bot.webapp``, …)."""
    return sorted({bot_package(m) for m, path in bot_modules().items() if path.name == "__init__.py"} - {"bot"})


@pytest.mark.parametrize(
    "package",
    [
        "bot",  # the application and everything below it
        *bot_packages(),  # the storage and each adapter: bot.discord's client and port share bot.discord.interactions
        # (issue 25 point 5); bot.webapp's invite takes what it needs from its caller, not the server (issue 40)
    ],
)
def test_no_import_circle_in_bot(package: str) -> None:
    found = circles(bot_imports(), package)
    assert not found, f"import circles: {found}"


def test_every_package_of_bot_is_checked_for_circles() -> None:
    assert {"bot.storage", "bot.telegram", "bot.playground", "bot.discord", "bot.webapp", "bot.app"} <= set(
        bot_packages()
    )


def test_bot_imports_flow_one_way() -> None:
    for module, deps in bot_imports().items():
        for dep in deps:
            assert bot_layer(dep) <= bot_layer(module), f"{module} reaches up to {dep}"
            if bot_layer(module) == bot_layer(dep) == 4:
                assert bot_package(dep) == bot_package(module), f"the adapter {module} imports {dep}"


def test_the_application_services_read_one_way() -> None:
    graph = bot_imports()
    assert {m.split(".")[-1] for m in bot_modules() if m.startswith("bot.app.")} | {"__init__"} == set(APP_ORDER)
    for index, name in enumerate(APP_ORDER):
        module = "bot.app" if name == "__init__" else f"bot.app.{name}"
        below = {"bot.app" if n == "__init__" else f"bot.app.{n}" for n in APP_ORDER[:index]}
        inside = {d for d in graph[module] if bot_layer(d) == 3}
        assert inside <= below, f"{module} imports {inside - below}, which come after it in {APP_ORDER}"


def test_no_hidden_imports_in_the_application_and_its_helpers() -> None:
    """Below the adapters every import is at the top of its module (an adapter may load a library lazily)."""
    for module, path in bot_modules().items():
        if bot_layer(module) > 3 or module.startswith("bot.storage"):
            continue
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
                inner = [n for n in ast.walk(node) if isinstance(n, ast.Import | ast.ImportFrom)]
                assert not inner, f"{module}: an import inside {node.name}()"
            if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test):
                raise AssertionError(f"{module}: an import behind TYPE_CHECKING")


def test_no_python_file_in_bot_over_600_lines() -> None:
    for module, path in bot_modules().items():
        if ".migrations." in module:
            continue
        lines = path.read_text(encoding="utf-8").count("\n")
        if module != "bot.storage.store":  # being split by concern (issue 25 point 3)
            assert lines <= 600, f"{module}: {lines} lines"


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


def test_renderers_know_only_core_and_pillow() -> None:
    """``renderers`` draws views into pictures: it imports the standard library, ``core``, itself and Pillow, and
    nothing else — no chat, no test data (the gallery that draws testkit's positions is ``tools/gallery.py``)."""
    allowed = {"core", "renderers", "PIL"}
    for path in sorted((ROOT / "renderers").rglob("*.py")):
        bad = {m for m in modules_imported(path) if m.split(".")[0] not in allowed | sys.stdlib_module_names}
        assert not bad, f"{path.relative_to(ROOT)} imports {bad}: renderers know only core and Pillow"


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
