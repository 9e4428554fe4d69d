"""The project's rooms, read from its imports with ``ast``: arrows point one way (no import cycles
among its modules), the firmware's core knows no game, and ``firmware/`` keeps few modules on its
top floor and at most a dozen or so in each folder (``firmware/README.md`` draws the rooms)."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PACKAGES = ("engine", "vision", "hardware", "firmware")
MOST_ON_THE_TOP_FLOOR = 8
MOST_IN_A_FOLDER = 14


def module_name(path: Path) -> str:
    parts = path.relative_to(ROOT).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def project_modules() -> dict[str, Path]:
    return {module_name(path): path for package in PACKAGES for path in sorted((ROOT / package).rglob("*.py"))}


def imported(name: str, path: Path, modules: dict[str, Path]) -> set[str]:
    """The project's modules that ``name`` imports, anywhere in it (a function's lazy import too):
    ``from a.b import c`` is the module ``a.b.c`` where there is one, else ``a.b``."""
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.Import):
            targets = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = package.split(".")[: len(package.split(".")) - (node.level - 1)]
                base = ".".join(anchor + ([node.module] if node.module else []))
            targets = [f"{base}.{alias.name}" if f"{base}.{alias.name}" in modules else base for alias in node.names]
        else:
            continue
        found |= {target for target in targets if target in modules and target != name}
    return found


def import_graph() -> dict[str, set[str]]:
    modules = project_modules()
    return {name: imported(name, path, modules) for name, path in modules.items()}


def cycle(graph: dict[str, set[str]]) -> list[str] | None:
    """One import cycle (its modules in order, the first again at the end), or None."""
    state: dict[str, str] = {}  # "open" while on the path, "done" after
    path: list[str] = []

    def visit(node: str) -> list[str] | None:
        state[node] = "open"
        path.append(node)
        for target in sorted(graph[node]):
            if state.get(target) == "open":
                return path[path.index(target):] + [target]
            if target not in state and (found := visit(target)):
                return found
        path.pop()
        state[node] = "done"
        return None

    for start in sorted(graph):
        if start not in state and (found := visit(start)):
            return found
    return None


def test_no_module_imports_itself_round_a_cycle():
    found = cycle(import_graph())
    assert found is None, " -> ".join(found or [])


def test_the_cycle_finder_finds_a_cycle():
    assert cycle({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": set()}) == ["a", "b", "c", "a"]
    assert cycle({"a": {"b", "c"}, "b": {"c"}, "c": set()}) is None


def test_lazy_and_relative_imports_are_seen(tmp_path):
    modules = {"p": tmp_path / "p" / "__init__.py", "p.a": tmp_path / "p" / "a.py", "p.b": tmp_path / "p" / "b.py"}
    source = "from . import b\n\ndef f():\n    from p.a import thing\n"
    (tmp_path / "p").mkdir()
    modules["p.b"].write_text(source)
    assert imported("p.b", modules["p.b"], modules) == {"p.a"}  # itself left out
    modules["p.a"].write_text(source)
    assert imported("p.a", modules["p.a"], modules) == {"p.b"}


@pytest.mark.parametrize("package, forbidden", [
    ("engine", ("vision", "hardware", "firmware")),  # the rules know nothing of cameras, devices or the table
    ("vision", ("engine", "hardware", "firmware")),
    ("hardware", ("engine", "firmware")),
    ("firmware.core", ("firmware.games", "firmware.journal", "firmware.table", "firmware.web", "firmware.bench",
                       "firmware.calibration", "firmware.cli", "firmware.config", "firmware.devices")),
    ("firmware.games", ("firmware.table", "firmware.journal", "firmware.web", "firmware.config", "firmware.devices",
                        "firmware.cli", "firmware.bench.durability", "firmware.bench.advisor",
                        "firmware.calibration.calibrate", "firmware.calibration.calibrate_board", "firmware.calibration._steps",
                        "firmware.vision_commands")),
    ("firmware.drawing", ("firmware.core", "firmware.games", "firmware.journal", "firmware.table", "firmware.web",
                          "firmware.bench", "firmware.calibration", "firmware.cli", "firmware.config")),
])
def test_arrows_point_one_way(package, forbidden):
    """The core knows no game (and nothing that knows one); a game knows the rooms that host it (the
    table, the journal, the page, the configuration, the commands) only through the core; the
    drawing kit knows no room above it."""
    wrong = sorted(
        f"{name} imports {target}" for name, targets in import_graph().items()
        if name == package or name.startswith(package + ".")
        for target in targets if any(target == room or target.startswith(room + ".") for room in forbidden)
    )
    assert wrong == []


# firmware/README.md's drawing, top to bottom: a module imports only modules of its own layer or below.
# A module is in the first layer one of whose prefixes it starts with.
LAYERS = (
    ("the commands", ("firmware.cli",)),
    ("the games' list", ("firmware.games",)),
    ("each game", (*(f"firmware.games.{game}" for game in ("cant_stop", "columns", "counters", "tumblin", "yacht")),
                   "firmware.games.five_dice")),  # what the five-dice games share
    ("the kill test and bench-advisor", ("firmware.bench.durability", "firmware.bench.advisor")),
    ("the table", ("firmware.table",)),
    ("the web page, the calibrate command", ("firmware.web", "firmware.calibration.calibrate", "firmware.calibration.calibrate_board",
                                             "firmware.calibration._steps",
                                             "firmware.vision_compare", "firmware.vision_commands", "firmware.log_setup")),
    ("the review", ("firmware.review",)),
    ("the configuration and its devices", ("firmware.devices", "firmware.config")),
    ("the journal", ("firmware.journal",)),
    ("the core", ("firmware.core",)),
    ("the kits", ("firmware.drawing", "firmware.calibration", "firmware.bench", "firmware.device_config", "firmware")),
)


# vision/README.md's drawing, top to bottom, read the same way.
VISION_LAYERS = (
    ("the short names", ("vision",)),
    ("training", ("vision.training",)),
    ("measuring the reader", ("vision.measure",)),
    ("synthetic scenes", ("vision.scenes",)),
    ("the board's reading", ("vision.board",)),
    ("a frame's reading", ("vision.read",)),
)


def layer(module: str, layers: tuple[tuple[str, tuple[str, ...]], ...] = LAYERS) -> int:
    """The index in ``layers`` of ``module``'s layer (its most specific prefix wins)."""
    matches = [(len(prefix), index) for index, (_, prefixes) in enumerate(layers) for prefix in prefixes
               if module == prefix or module.startswith(prefix + ".")]
    return max(matches)[1]


def upward_imports(graph: dict[str, set[str]], package: str, layers: tuple[tuple[str, tuple[str, ...]], ...]) -> list[str]:
    """Each import in ``package`` of a module of a higher layer, named with both layers."""
    return sorted(
        f"{name} ({layers[layer(name, layers)][0]}) imports {target} ({layers[layer(target, layers)][0]})"
        for name, targets in graph.items() if name.startswith(package)
        for target in targets if target.startswith(package) and layer(target, layers) < layer(name, layers)
    )


@pytest.mark.parametrize("package, layers", [("firmware", LAYERS), ("vision", VISION_LAYERS)], ids=["firmware", "vision"])
def test_a_package_imports_only_its_own_layer_or_below(package, layers):
    assert upward_imports(import_graph(), package, layers) == []


def test_an_import_up_a_floor_is_caught():
    """The journal reading the catalogue, as it did before the catalogue moved into the core."""
    graph = {"firmware.journal.rows": {"firmware.games", "firmware.core.game_setup"}, "firmware.games": {"firmware.core"}}
    assert upward_imports(graph, "firmware", LAYERS) == ["firmware.journal.rows (the journal) imports firmware.games (the games' list)"]
    assert upward_imports({"vision.read.settle": {"vision.measure.evaluation"}}, "vision", VISION_LAYERS) != []


def test_every_vision_room_says_what_lives_there_and_holds_a_few_modules():
    rooms = [path.parent for path in (ROOT / "vision").rglob("__init__.py")]
    silent = [str(room.relative_to(ROOT)) for room in rooms if not ast.get_docstring(ast.parse((room / "__init__.py").read_text()))]
    assert silent == []
    assert {path.parent for path in (ROOT / "vision").rglob("*.py")} <= set(rooms), "a folder of modules without __init__.py"
    assert list((ROOT / "vision").glob("*.py")) == [ROOT / "vision" / "__init__.py"], "every module in a room"
    crowded = {str(room.relative_to(ROOT)): n for room in rooms if (n := len(list(room.glob("*.py")))) > MOST_IN_A_FOLDER}
    assert crowded == {}


def room(module: str) -> str | None:
    """The room of the firmware (a folder right under ``firmware/``) that holds ``module``; None on
    the top floor (its modules start things and sit on many floors) or outside the firmware."""
    parts = module.split(".")
    in_a_room = parts[0] == "firmware" and len(parts) > 1 and (ROOT / "firmware" / parts[1]).is_dir()
    return ".".join(parts[:2]) if in_a_room else None


def room_graph(graph: dict[str, set[str]]) -> dict[str, set[str]]:
    """Which rooms each room imports: ``graph``'s imports from one room into another."""
    rooms: dict[str, set[str]] = {}
    for name, targets in graph.items():
        if home := room(name):
            rooms.setdefault(home, set()).update(there for target in targets if (there := room(target)) not in (None, home))
    return rooms


def test_no_room_imports_a_room_that_imports_it_back():
    """Whole folders import only down: the kill test's life, which lists the games, sat in bench/,
    whose statistics and progress bars the games' benchmarks import (issue 52)."""
    found = cycle(room_graph(import_graph()))
    assert found is None, " -> ".join(found or [])


def test_a_room_importing_one_that_imports_it_back_is_caught():
    graph = {"firmware.bench.life": {"firmware.games"}, "firmware.games": {"firmware.games.yacht.bench"},
             "firmware.games.yacht.bench": {"firmware.bench.stats", "firmware.cli"}, "firmware.cli": {"firmware.bench.life"}}
    assert room_graph(graph) == {"firmware.bench": {"firmware.games"}, "firmware.games": {"firmware.bench"}}
    assert cycle(room_graph(graph)) == ["firmware.bench", "firmware.games", "firmware.bench"]


def test_no_room_imports_the_command_line():
    assert sorted(name for name, targets in import_graph().items() if "firmware.cli" in targets) == []


def test_the_firmware_keeps_few_modules_on_its_top_floor_and_in_each_folder():
    firmware = ROOT / "firmware"
    assert len(list(firmware.glob("*.py"))) <= MOST_ON_THE_TOP_FLOOR
    crowded = {str(folder.relative_to(ROOT)): n for folder in firmware.rglob("*") if folder.is_dir()
               if (n := len(list(folder.glob("*.py")))) > MOST_IN_A_FOLDER}
    assert crowded == {}


def test_every_firmware_folder_says_what_lives_there():
    folders = [path.parent for path in (ROOT / "firmware").rglob("__init__.py")]
    silent = [str(folder.relative_to(ROOT)) for folder in folders
              if not ast.get_docstring(ast.parse((folder / "__init__.py").read_text()))]
    assert silent == []
    python_folders = {path.parent for path in (ROOT / "firmware").rglob("*.py")}
    assert python_folders <= set(folders), "a folder of modules without __init__.py"
