"""The ``dice-companion`` command line."""

from __future__ import annotations

import argparse
import functools
import math
import os
import shlex
import sys
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import TYPE_CHECKING

try:  # the rules and the reader load for seconds: Ctrl-C meanwhile leaves as it does later, without a traceback
    import firmware.games  # noqa: F401  (lists the games in the core's catalogue, before any command asks it)
    from engine.errors import EngineError
    from firmware.config import ConfigError, load_config
    from firmware.core.catalogue import default_kind, kinds, table_game
    from firmware.drawing.screens import says
    from firmware.journal.write_limits import write_trouble
    from vision.measure.at_the_table import TRAY_MARGIN
    from vision.measure.evaluation import PHOTOS_OWN_UP, DatasetError
    from vision.read.params import DEFAULT_PARAMS, VisionInputError
except KeyboardInterrupt:
    sys.exit(130)

if TYPE_CHECKING:
    from firmware.journal.journal import Journal
    from firmware.table.start import Outcome

DEMO_PEOPLE = ("You", "Advisor", "Advisor2", "Advisor3")  # you against the advisor's seats
DEMO_FRIENDS = ("You", "Friend", "Friend2", "Friend3")  # a game of skill: every seat is flicked at the keyboard


def _demo(args: argparse.Namespace) -> int:
    from firmware.core.game_setup import GameSetup

    from firmware.table.start import play_demo

    game = table_game(args.game)
    if args.players not in game.players:
        counts = f"{game.players.start}" if len(game.players) == 1 else f"{game.players.start} to {game.players.stop - 1}"
        raise ConfigError(f"--players {args.players}: {game.title} is for {counts} players")
    cant_stop = {"--columns": args.columns is not None, "--jumping": args.jumping, "--forced-move": args.forced_move}
    given = [flag for flag, used in cant_stop.items() if used]
    if given and args.game != "cant-stop":
        raise ConfigError(f"{given[0]} is a Can't Stop option: {game.title} has no such rule")
    rule = "jumping" if args.jumping else "forced-move" if args.forced_move else "standard"
    options = {"rule": rule, "columns_to_win": args.columns or 3} if args.game == "cant-stop" else {}
    auto = args.auto or not sys.stdin.isatty()
    if auto:
        setup = GameSetup(game.autoplayer(args.players, args.seed).names, kind=args.game, options=options)
    elif game.advised:  # you against the advisor (and more advisors for more players), with its hints
        names = DEMO_PEOPLE[: args.players]
        setup = GameSetup(names, bots=names[1:], hints=True, kind=args.game, options=options)
    else:  # a game of skill: the keyboard flicks for every seat
        setup = GameSetup(DEMO_FRIENDS[: args.players], kind=args.game, options=options)
    setup.check()
    if auto and not args.auto:
        print("dice-companion: the keyboard is not a terminal, so bots play (--auto)", file=sys.stderr)
    data = _data_folder(args.data, "--data DIR") if args.data is not None else None
    outcome = play_demo(setup, args.seed, auto, record=args.record, data=data)
    return _say_how_it_ended(outcome, _again("demo", "--data", str(data)) if data else None)


def _again(*arguments: str) -> str:
    """The command that runs ``arguments`` again, to be pasted into a shell: the program as it was started
    (the README installs it in .venv, off the PATH; ``-m firmware.cli`` with this interpreter when run
    as a module), quoted where a path needs it."""
    started = sys.argv[0]
    as_module = not started or started.endswith(".py") or started.startswith("-")  # "-c" too
    program = [sys.executable, "-m", "firmware.cli"] if as_module else [started]
    return shlex.join([*program, *arguments])


def _say_how_it_ended(outcome: Outcome, resume: str | None) -> int:
    """The same true line for every way out (QUIT, Ctrl-C, the end of the game), with how to resume
    a game left unfinished where it was journaled (``resume``: the command); the exit status."""
    if outcome.unsaved:
        again = f"; once it can, `{resume}` resumes the game" if resume else ""
        raise OSError(f"{outcome.unsaved}: the game stopped there{again}")
    when = f"in round {outcome.rounds} ({outcome.turns} turns)"  # rounds, as the screens count them
    if outcome.alone:  # nobody to beat: the score, as the screen says it
        print(f"{outcome.alone} {when}")
    elif outcome.winner:
        print(f"{says(outcome.winner, 'wins')} {when}")
    elif outcome.over:
        print(f"a draw {when}")
    elif outcome.rounds:
        print("left before anyone won" + (f"; `{resume}` resumes the game" if resume else ""))
    else:  # no round shown: left on the set-up screen
        print("left before a game began")
    return 130 if outcome.interrupted else 0  # Ctrl-C: the status a shell expects


def _history(args: argparse.Namespace) -> int:
    from firmware.journal.history import history_lines
    import sqlite3

    from firmware.journal.journal import JOURNAL_NAME, Journal, JournalError

    data = args.data if args.data is not None else load_config(args.config).data_dir
    if not data.is_dir():
        named = "--data DIR" if args.data is not None else f"data.dir in {args.config}"
        raise ConfigError(f"there is no data folder {data}: name the folder the games were journaled in ({named})")
    path = data / JOURNAL_NAME
    if not path.is_file():
        raise ConfigError(f"no journal at {path}: no game was played with this data folder")
    journal = Journal(path, read_only=True)
    try:
        for line in history_lines(journal) if args.review is None else _review_lines(journal, args.review):
            print(line)
    except sqlite3.DatabaseError as error:  # damage met as it reads (a reader runs no full check)
        raise JournalError(f"the journal {path} is unreadable: {error}") from None
    finally:
        journal.close()
    return 0


def _review_lines(journal: Journal, game: int) -> Iterator[str]:
    """``history --review N``: the review's lines; a game that cannot be reviewed is a ConfigError's one line."""
    from firmware.review.game_review import NoReview, journaled_review
    from firmware.review.text import review_lines

    try:
        review = journaled_review(journal, game)
    except NoReview as error:
        raise ConfigError(str(error)) from None
    return review_lines(review)


def _serve(args: argparse.Namespace) -> int:
    from firmware.config import Config, check_address
    from firmware.web.server import WebServer

    config = load_config(args.config) if args.config is not None else Config()
    data = args.data if args.data is not None else config.data_dir
    if not data.is_dir():
        raise ConfigError(f"there is no data folder {data}: name the folder the games are journaled in")
    address = args.address or config.web.address
    check_address(address, "--address")
    server = WebServer(data, address, args.port if args.port is not None else config.web.port, config.web.hosts)
    where = server.url if address not in ("0.0.0.0", "::") else (
        f"port {server.port} of every network this machine is on (http://<its address>:{server.port}/)")
    print(f"dice-companion: the page is at {where} (read-only; ctrl-c stops it)", flush=True)
    try:
        server.serve_forever()
    finally:
        server.close()
    return 0


def _doctor(args: argparse.Namespace) -> int:
    from firmware.table.doctor import doctor

    return doctor(args.config, args.buttons)


def _bench_advisor(args: argparse.Namespace) -> int:
    from firmware.bench.advisor import bench_lines

    for line in bench_lines(args.games, args.seed, args.game):
        print(line, flush=True)
    return 0


def _bench_durability(args: argparse.Namespace) -> int:
    import tempfile

    from firmware.bench.durability import kill_test_lines, run_kill_test

    with tempfile.TemporaryDirectory(prefix="dice-companion-kill-") as scratch:
        data = _data_folder(args.data, "--data DIR") if args.data is not None else Path(scratch)
        if args.data is not None:
            _own_folder(data)
        try:
            figures = run_kill_test(args.kills, args.seed, data, args.game, args.vary_players)
        except KeyboardInterrupt:
            if args.data is not None:
                print(f"bench-durability stopped: {data} keeps the games played so far; remove it (or name another "
                      "folder) to run again", file=sys.stderr)
            raise
    for line in kill_test_lines(figures):
        print(line)
    return 0 if not figures.lost and not figures.broken_games else 1


def _bench_durability_life(args: argparse.Namespace) -> int:
    from firmware.bench.durability import child_main

    return child_main(args.data, args.seed, args.kind, args.players)


def _own_folder(data: Path) -> None:
    """Refuse a folder that holds games (the kill test would play its own games into them, and
    resume someone's unfinished one) or that a companion is using."""
    from firmware.journal.journal import JOURNAL_NAME, Journal

    path = data / JOURNAL_NAME
    if path.exists():
        journal = Journal(path)  # refused in one line when a companion holds it
        try:
            games = len(journal.games())
        finally:
            journal.close()
        if games:
            raise ConfigError(f"bench-durability --data {data}: it holds a journal of {games} game{'s' * (games != 1)}; the kill test "
                              "plays its own games and needs a folder of its own (a new or empty one; remove "
                              "this one if a stopped kill test left it)")


def _run(args: argparse.Namespace) -> int:
    from firmware.log_setup import setup_logging
    from firmware.table.start import run_device

    config = load_config(args.config)
    _data_folder(config.data_dir, f"data.dir in {args.config}")
    _needs_a_terminal(config.buttons.source, args.config)
    setup_logging()  # timestamped on a terminal; under systemd the journal stamps the lines
    return _say_how_it_ended(run_device(config), _again("run", "--config", str(args.config)))


def _needs_a_terminal(source: str, named: object) -> None:
    """Keyboard buttons without a terminal would read the end of input (QUIT) at once: refused in one line."""
    if source == "keyboard" and not sys.stdin.isatty():
        raise ConfigError(f'buttons.source = "keyboard" in {named} needs a terminal, and this one has none '
                          '(under systemd, wire the GPIO buttons: source = "gpio")')


def _calibrate(args: argparse.Namespace) -> int:
    from firmware.calibration.calibrate import calibrate

    if args.dice and args.forget:
        raise ConfigError("calibrate --dice --forget: --forget drops what the table learned of its dice and --dice "
                          "teaches it; run --forget, then --dice")
    if args.dice or args.forget:
        from firmware.table.start import teach_dice

        config = load_config(args.config)
        if args.dice:
            _needs_a_terminal(config.buttons.source, args.config)
        return teach_dice(config, forget=args.forget)
    game = table_game(args.game)
    if not game.camera:
        print(f"dice-companion calibrate: {game.title} reads no dice, so there is nothing to calibrate", file=sys.stderr)
        return 1
    return calibrate(load_config(args.config), surface=game.camera)


def _bench_engine(args: argparse.Namespace) -> int:
    from firmware.games.cant_stop.bench_engine import run_engine_bench

    for line in run_engine_bench(args.games, args.seed).lines():
        print(line)
    return 0


def _read(args: argparse.Namespace) -> int:
    from firmware.vision_commands import read_command

    return read_command(args.image, args.out, up=args.up)


def _eval_vision(args: argparse.Namespace) -> int:
    from firmware.vision_commands import eval_command

    splits = args.split.split(",") if args.split else None
    if args.adapt is not None:
        from firmware.vision_commands import adapt_command

        return adapt_command(args.folder, args.adapt, splits, args.only, raw_labels=args.raw_labels, up=args.up)
    return eval_command(args.folder, args.failures, splits, args.calibration, args.table, only=args.only, why=args.why,
                        raw_labels=args.raw_labels, up=args.up, tray_margin=args.tray_from_boxes)


def _bench_vision(args: argparse.Namespace) -> int:
    from firmware.vision_commands import bench_vision_command

    return bench_vision_command(args.trays, args.seed, args.threads, args.up, tray_margin=args.tray_from_dice)


def _compare_vision(args: argparse.Namespace) -> int:
    from firmware.vision_compare import compare_command

    if len(args.candidates) > 2:
        raise DatasetError(f"compare-vision takes one candidate or two (one recipe, two seeds), got {len(args.candidates)}")
    folders = {"dev": args.dev, "train-photos": args.train_photos, "oblique": args.oblique}
    return compare_command(args.candidates, args.aim, folders, args.trays, args.seed, args.floor, args.tray_from_boxes,
                           leaning_threshold=args.leaning_threshold)


def _data_folder(folder: Path, named: str) -> Path:
    """``folder``, made if missing: a folder that cannot be made is refused up front, naming it, where
    it was named, and what to do, instead of an ``[Errno ...]`` from whichever file is written first."""
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError as error:
        raise ConfigError(f"cannot make the data folder {folder} ({named}): {_what_to_do(folder, error)}") from error
    return folder


def _what_to_do(folder: Path, error: OSError) -> str:
    """Why ``folder`` could not be made and what to do: a file in its place (or a folder's above it)
    must go first, as no ``install -d`` makes a folder there; else make it with the rights it needs."""
    if isinstance(error, (FileExistsError, NotADirectoryError)):
        for path in (folder, *folder.parents):
            if os.path.lexists(path) and not path.is_dir():
                return f"{path} is a file, not a folder; move it away or name another folder"
    return f"{error.strerror}; make it yourself (sudo install -d -o $USER {folder}) or name another"


def _port(text: str) -> int:
    """An argparse type: a TCP port, 1 to 65535."""
    value = int(text)
    if not 1 <= value <= 65535:
        raise argparse.ArgumentTypeError(f"a port is 1 to 65535, got {value}")
    return value


def _whole(text: str) -> int:
    """An argparse type: a whole number (argparse would say "invalid int value")."""
    try:
        return int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"must be a whole number, got {text!r}") from None


def _positive(text: str) -> int:
    """An argparse type: a whole number of at least 1."""
    value = _whole(text)
    if value < 1:
        raise argparse.ArgumentTypeError(f"must be at least 1, got {value}")
    return value


def _seed(text: str) -> int:
    """An argparse type: a seed, a whole number from 0 (numpy refuses negative ones with a traceback)."""
    value = _whole(text)
    if value < 0:
        raise argparse.ArgumentTypeError(f"a seed is a whole number from 0 up, got {value}")
    return value


def _number(text: str) -> float:
    """``text`` as a finite number, or NaN where it is none (each type then says what it wants)."""
    try:
        value = float(text)
    except ValueError:
        return math.nan
    return value if math.isfinite(value) else math.nan


def _degrees(text: str) -> float:
    """An argparse type: an angle in degrees (a finite number), taken round to 0-360."""
    value = _number(text)
    if math.isnan(value):
        raise argparse.ArgumentTypeError(f"must be degrees (a number such as 0 or 90), got {text!r}")
    return value % 360.0


def _die_sizes(text: str) -> float:
    """An argparse type: how far a tray reaches past the dice, in die sizes (a number above 0)."""
    value = _number(text)
    if not value > 0:
        raise argparse.ArgumentTypeError(f"must be a number of die sizes above 0, such as 1.5, got {text!r}")
    return value


def _aims(text: str) -> tuple[tuple[str, str | None], ...]:
    """An argparse type for compare-vision's --aim (:func:`vision.measure.comparison.parse_aims`)."""
    from vision.measure.comparison import AimError, parse_aims

    try:
        return parse_aims(text)
    except AimError as error:
        raise argparse.ArgumentTypeError(str(error).removeprefix("--aim ")) from None


def _probability(text: str) -> float:
    """An argparse type: a probability, a number from 0 to 1."""
    value = _number(text)
    if not 0 <= value <= 1:
        raise argparse.ArgumentTypeError(f"must be a probability from 0 to 1, such as 0.8, got {text!r}")
    return value


def _points(text: str) -> float:
    """An argparse type: percentage points, a number from 0 up."""
    value = _number(text)
    if not value >= 0:
        raise argparse.ArgumentTypeError(f"must be percentage points, a number from 0 up, got {text!r}")
    return value


def _up(text: str) -> float | str:
    """An argparse type for eval-vision's --up: degrees, or 'photo' for each photo's own (PHOTOS_OWN_UP)."""
    if text == PHOTOS_OWN_UP:
        return PHOTOS_OWN_UP
    try:
        return _degrees(text)
    except argparse.ArgumentTypeError:
        raise argparse.ArgumentTypeError(f"must be degrees (a number such as 0 or 90) or 'photo', got {text!r}") from None


UP_HELP = ("where the camera's far side lies, in degrees counter-clockwise from the picture's top "
           "(0: the top, as a webcam leaning over a desk looks forward)")


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(  # no abbreviations: --game must never be taken for --games
        prog="dice-companion", description="A Raspberry Pi referee for table-top dice games.", allow_abbrev=False
    )

    def game_argument(command: argparse.ArgumentParser, what: str) -> None:
        command.add_argument("--game", choices=kinds(), default=default_kind(), help=f"{what} (default {default_kind()})")

    commands = parser.add_subparsers(dest="command", required=True)
    command = functools.partial(commands.add_parser, allow_abbrev=False)  # nor in any command's own

    demo = command(
        "demo", help="a whole game on simulated hardware: you against the advisor (in Tumblin' Dice, a game of "
        "skill, the keyboard plays every seat), keyboard buttons, synthetic camera, terminal OLED"
    )
    game_argument(demo, "the game to play")
    demo.add_argument("--auto", action="store_true", help="bots (advisor, Rule of 28, ...) play the whole game unattended")
    demo.add_argument("--seed", type=_seed, default=1, help="seed for the simulated dice (default 1)")
    demo.add_argument("--players", type=_whole, default=2, choices=(1, 2, 3, 4),
                      help="how many play (default 2; Columns: 2 only; Yacht: 1 to 4)")
    demo.add_argument("--columns", type=_whole, help="Can't Stop: columns to win, 3, 4 or 5 (default 3)")
    demo.add_argument("--record", type=Path, metavar="DIR",
                      help="also save every OLED screen as a PNG in DIR (made if missing; refused if it already holds screens)")
    demo.add_argument("--data", type=Path, metavar="DIR", help="journal the games in DIR (an unfinished one resumes)")
    rule = demo.add_mutually_exclusive_group()
    rule.add_argument("--jumping", action="store_true", help="Can't Stop: play the Jumping variant")
    rule.add_argument("--forced-move", action="store_true", help="Can't Stop: play the Forced Move variant")
    demo.set_defaults(run=_demo)

    device = command("run", help="the companion on the devices a configuration file names")
    device.add_argument("--config", type=Path, required=True, metavar="FILE", help="TOML, see firmware/pi/dice-companion.toml")
    device.set_defaults(run=_run)

    calibration = command(
        "calibrate", help="find the empty tray in the camera's view (or take [tray] corners) and store its outline; "
        "with --game of a board game, the levels of the empty board (or [board] levels)"
    )
    game_argument(calibration, "the game whose view to calibrate: its board's levels, or the tray")
    calibration.add_argument("--config", type=Path, required=True, metavar="FILE", help="TOML, see firmware/pi/dice-companion.toml")
    calibration.add_argument("--dice", action="store_true",
                             help="teach the reader the table's own dice: throw them, confirm or correct each reading with the buttons")
    calibration.add_argument("--forget", action="store_true", help="drop the dice examples of [game] dice_set and the tuned layer")
    calibration.set_defaults(run=_calibrate)

    history = command("history", help="the finished and abandoned games, and each player's record")
    where = history.add_mutually_exclusive_group(required=True)
    where.add_argument("--config", type=Path, metavar="FILE", help="the device's configuration (its data.dir)")
    where.add_argument("--data", type=Path, metavar="DIR", help="a data folder")
    history.add_argument("--review", type=int, metavar="N",
                         help="game N's decisions against the advisor's: each player's totals and grades, the costliest")
    history.set_defaults(run=_history)

    serve = command(
        "serve", help="a read-only web page: the game in progress, the history, the dice statistics ([web] in the configuration)"
    )
    where = serve.add_mutually_exclusive_group(required=True)
    where.add_argument("--config", type=Path, metavar="FILE", help="the device's configuration (its data.dir and [web])")
    where.add_argument("--data", type=Path, metavar="DIR", help="a data folder (the page on 127.0.0.1:8080 unless told)")
    serve.add_argument("--address", help="listen here (default [web] address: 127.0.0.1, this machine only)")
    serve.add_argument("--port", type=_port, help="listen on this port, 1 to 65535 (default [web] port: 8080)")
    serve.set_defaults(run=_serve)

    checkup = command("doctor", help="check each part the companion needs (configuration, data folder, display, camera, "
                      "buttons, tray, web port): one line each, ok or what to do; exit 0 when all are ok")
    checkup.add_argument("--config", type=Path, required=True, metavar="FILE", help="TOML, see firmware/pi/dice-companion.toml")
    checkup.add_argument("--buttons", action="store_true",
                         help="also ask for each button in turn, on the display and here, and see its press (10 s each)")
    checkup.set_defaults(run=_doctor)

    advisor = command(
        "bench-advisor", help="a game's bots (--game: Can't Stop's random, Rule of 28 and advisor by default) in solitaire "
        "and against each other; the last line is the game's contract line"
    )
    game_argument(advisor, "whose bots")
    advisor.add_argument("--games", type=_positive, default=1000, help="games per measure (default 1000)")
    advisor.add_argument("--seed", type=_seed, default=1, help="seed for the dice and the random bot (default 1)")
    advisor.set_defaults(run=_bench_advisor)

    durability = command(
        "bench-durability", help="kill an automated game with SIGKILL at random moments, resume it, count lost events"
    )
    game_argument(durability, "the game the bots play")
    durability.add_argument("--kills", type=_positive, default=100, help="how many lives to kill with SIGKILL (default 100)")
    durability.add_argument("--seed", type=_seed, default=1, help="seed for the moments of the kills and the dice (default 1)")
    durability.add_argument("--data", type=Path, metavar="DIR", help="keep the journal here (default: a temporary folder)")
    durability.add_argument("--vary-players", action="store_true",
                            help="each life asks for a player count drawn from the game's range, as a restart with "
                                 "another --players would (the game it resumes keeps its own)")
    durability.set_defaults(run=_bench_durability)

    life_says = ("one life of the kill test, which bench-durability starts as a process of its own and kills: resume "
                 "the unfinished game journaled in DATA, or start one, and let bots play it to the end, printing 'ack "
                 "GAME SEQ EVENT' after each event is committed (a person runs it only to look at one life)")
    # a command, where the games are listed first: bench/ sits below them
    life = command("bench-durability-life", help=life_says, description=life_says)
    life.add_argument("data", type=Path, metavar="DATA", help="the data folder holding the journal")
    life.add_argument("seed", type=_seed, metavar="SEED", help="seed for the simulated dice and the bots")
    life.add_argument("kind", choices=kinds(), metavar="KIND", help=f"the game the bots play: {', '.join(kinds())}")
    life.add_argument("players", type=_whole, nargs="?", default=2, metavar="PLAYERS",
                      help="players of a new game (default 2; a resumed game keeps its own)")
    life.set_defaults(run=_bench_durability_life)

    bench = command("bench-engine", help="measure games/s and legal-choice computations/s of Can't Stop's "
                                "engine (the other games' speed: bench-advisor --game)")
    bench.add_argument("--game", choices=("cant-stop",), default="cant-stop",
                       help="the game whose engine to time (default and only: cant-stop)")
    bench.add_argument("--games", type=_positive, default=2000, help="bot games to play and time (default 2000)")
    bench.add_argument("--seed", type=_seed, default=1, help="seed for the dice (default 1)")
    bench.set_defaults(run=_bench_engine)

    read = command("read", help="read the dice in one image")
    read.add_argument("image", type=Path, help="a photo or frame of the tray (PNG, JPEG, ...)")
    read.add_argument("--out", type=Path, help="write the annotated picture here (PNG)")
    read.add_argument("--up", type=_degrees, default=None, metavar="DEGREES",
                      help=UP_HELP + "; by default a camera straight down")
    read.set_defaults(run=_read)

    evaluation = command(
        "eval-vision", help="measure the reader on DIR/manifest.csv and DIR/images/"
    )
    evaluation.add_argument("folder", type=Path, metavar="DIR", help="a photo folder with manifest.csv, images/ and optionally boxes.csv")
    evaluation.add_argument("--failures", type=Path, metavar="OUTDIR", help="annotated pictures of wrong photos")
    evaluation.add_argument("--split", metavar="NAMES", help="only rows whose split column is one of these, e.g. valid,test")
    evaluation.add_argument("--calibration", action="store_true",
                            help="also print how often each confidence band was right, and the figures at other thresholds")
    evaluation.add_argument("--table", action="store_true",
                            help="read each photo knowing its number of dice, as at the table; the last line gives how "
                                 "many were right, refused or silently wrong")
    evaluation.add_argument("--why", action="store_true",
                            help="also list the dice the pipeline lost that its classifier reads right on the labelled "
                                 "box, by cause (needs boxes.csv)")
    evaluation.add_argument("--raw-labels", action="store_true",
                            help="measure against the set's own labels, without the reviewed corrections "
                                 "(vision/measure/label_corrections.csv)")
    evaluation.add_argument("--only", metavar="GLOB", help="only photos whose file name matches, e.g. 'rune55_PXL*'")
    how = evaluation.add_mutually_exclusive_group()
    how.add_argument("--tray-from-boxes", type=_die_sizes, metavar="M",
                     help="read as the companion does at a table: only the dice inside the tray count, the tray "
                          "being the bounding rectangle of the labelled boxes' centres grown by M times the "
                          "photo's median box size on every side (1.5 is what the README reports); photos "
                          "without boxes are left out and counted. Every figure is of those readings (with "
                          "--table, cut to the count after the tray), and the last line, 'at the table: right "
                          "R%% refused F%% (extra e unsure u missed m) silent S%% photos N', counts the photos "
                          "taken right, refused (more dice than thrown / as many, one unreadable / fewer) and "
                          "taken although wrong")
    how.add_argument("--adapt", type=_positive, metavar="K",
                     help="play each source as a table: tune the reader on its first K photos (by name), measure "
                          "the rest, untuned figures beside the tuned ones")
    evaluation.add_argument("--up", type=_up, default=PHOTOS_OWN_UP, metavar="DEGREES|photo",
                            help=UP_HELP + "; 'photo' (the default): each photo's own, from the manifest's up "
                                 "column, a camera straight down where it has none")
    evaluation.set_defaults(run=_eval_vision)

    bench_vision = command("bench-vision", help="reader accuracy and speed on synthetic trays")
    bench_vision.add_argument("--trays", type=_positive, default=1000, help="trays of each kind to render and read (default 1000)")
    bench_vision.add_argument("--seed", type=_seed, default=1, help="seed for the synthetic trays (default 1)")
    bench_vision.add_argument("--threads", type=_positive, default=1, help="threads OpenCV and the nets use while reading (default 1)")
    bench_vision.add_argument("--up", type=_degrees, default=0.0, metavar="DEGREES",
                              help=UP_HELP + " (the default); the desk's webcam is drawn looking that way and the reader told "
                                   "so, and that the other trays are seen from straight above")
    bench_vision.add_argument("--tray-from-dice", type=_die_sizes, default=TRAY_MARGIN, metavar="M",
                              help="each kind's second line reads its trays as at the table: the dice inside the drawn "
                                   "dice's spread grown by M die sizes (the whole picture for garbage), the count "
                                   f"known (default {TRAY_MARGIN})")
    bench_vision.set_defaults(run=_bench_vision)

    compare = command(
        "compare-vision", help="read every photo set and bench-vision scene with the shipped nets and a candidate's, "
        "side by side in Markdown, and end with one verdict line: ship the candidate or keep the shipped nets"
    )
    compare.add_argument("candidates", type=Path, nargs="+", metavar="CANDIDATE",
                         help="a folder holding any of dice-classifier.onnx, dice-detector.onnx, "
                              "dice-detector-leaning.onnx and dice-classifier-leaning.onnx (a missing one: the "
                              "shipped one) and optionally "
                              "trained-on.txt; two folders: one recipe trained with two seeds, whose difference on "
                              "each figure is its spread")
    compare.add_argument("--aim", type=_aims, required=True, metavar="SET[:FIGURE],...",
                         help="where the candidate was aimed: sets (dev, train-photos, grey, colour, oblique, or a "
                              "scene: '4 dice', touching, clutter, garbage, desk, crowd...), each alone (its headline: "
                              "at the table right for photos, exact trays for scenes) or with a figure (per-die, "
                              "per-photo, silent, table-right, table-silent, label-boxes, label-boxes-said; for scenes "
                              "exact, invented, count, per-die). The candidate ships only if better on every aim by "
                              "more than the spread, and worse on no figure of dev, train-photos, grey or colour by "
                              "more than it")
    compare.add_argument("--dev", type=Path, default=Path("../shared/datasets/dice-photos"), metavar="DIR",
                         help="the dev photos, read less those either net trained on (default ../shared/datasets/dice-photos)")
    compare.add_argument("--train-photos", type=Path, default=Path("../shared/datasets/train-photos"), metavar="DIR",
                         help="its valid and test splits, and in them the grey camera (rune55_0*) and the colour tray "
                              "(rune55_PXL*) (default ../shared/datasets/train-photos)")
    compare.add_argument("--oblique", type=Path, default=Path("/tmp/oblique"), metavar="DIR",
                         help="the oblique renders, read with each photo's own far side (default /tmp/oblique; left out, "
                              "said, when missing: python -m vision.training.render3d --count 150 --out /tmp/oblique "
                              "--seed 7 --tilt 20 40 --photo-set)")
    compare.add_argument("--trays", type=_positive, default=60, help="bench-vision trays of each kind (default 60)")
    compare.add_argument("--seed", type=_seed, default=1, help="seed for the synthetic trays (default 1)")
    compare.add_argument("--floor", type=_points, default=0.5, metavar="POINTS",
                         help="the least spread of a figure, in points (default 0.5): with one candidate the spread itself")
    compare.add_argument("--tray-from-boxes", type=_die_sizes, default=TRAY_MARGIN, metavar="M",
                         help=f"at the table, the tray is the labelled dice's spread grown by M die sizes (default {TRAY_MARGIN})")
    compare.add_argument("--leaning-threshold", type=_probability, metavar="P",
                         help="the candidates' face threshold where the camera leans, as their leaning classifier "
                              "was chosen with (default the reader's, "
                              f"{DEFAULT_PARAMS.leaning_min_value_probability})")
    compare.set_defaults(run=_compare_vision)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    try:
        args = build_parser().parse_args(argv)
        return int(args.run(args))
    except (EngineError, ConfigError, VisionInputError, DatasetError, OSError) as error:  # refusals, not bugs: no traceback
        print(f"dice-companion: {write_trouble(error)}", file=sys.stderr)
        return 2
    except RecursionError:  # pathlib makes and resolves folders by recursion: a path thousands of folders deep
        print("dice-companion: a path nests too deeply to be used (thousands of folders): give a shorter one",
              file=sys.stderr)
        return 2
    except KeyboardInterrupt:  # ctrl-c: a normal way to leave
        return 130


if __name__ == "__main__":
    sys.exit(main())
