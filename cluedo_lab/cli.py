"""The ``cluedo-lab`` command: solve and explain records from the shell.

Exit status: 0 on success; 1 when the question has no answer (a contradictory record, whose
conflicting events are named, or ``explain`` of a cell that is not known); 2 for input that
cannot be read (a malformed record, an unknown card or place).

Each subcommand imports what it uses when it runs: ``cluedo-lab solve`` loads neither the
lessons nor the question ranking (``benchmarks/import_time.py``).
"""

from __future__ import annotations

import argparse
import codecs
import json
import os
import sys
from collections.abc import Callable, Sequence
from fractions import Fraction
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING

from .rules.errors import CluedoLabError, Contradiction
from .rules.files import shown, write_file
from .rules.numbers import MEANINGS, STYLES, chance_style_used

if TYPE_CHECKING:
    from .knowledge.engine import Knowledge


def _fraction(p: Fraction) -> str:
    return str(p.numerator) if p.denominator == 1 else f"{p.numerator}/{p.denominator}"


def solve_report(knowledge: Knowledge) -> dict[str, object]:
    """The machine-readable answer of ``cluedo-lab solve --json``."""
    edition = knowledge.edition
    probabilities = knowledge.probabilities()
    known = [{"card": card, "place": place, "holds": holds}
             for (card, place), holds in knowledge.known().items()]
    envelope = knowledge.envelope_distribution()
    solution = knowledge.solution()
    return {
        "edition": edition.id,
        "observer": knowledge.record.observer,
        "model": knowledge.model,
        "places": list(knowledge.places),
        "cards": {c.id: c.name for c in edition.cards},
        "consistent_deals": _number(knowledge.consistent_deals),
        "known": known,
        "solution": list(solution) if solution else None,
        "probabilities": {card: {place: _fraction(p) for place, p in row.items()}
                          for card, row in probabilities.items()},
        "envelope": [{"cards": list(cards), "probability": _fraction(p)}
                     for cards, p in sorted(envelope.items(), key=lambda kv: (-kv[1], kv[0]))],
    }


def _number(value: int | Fraction) -> int | str:
    return value if isinstance(value, int) else _fraction(Fraction(value))


def _solve(args: argparse.Namespace) -> int:
    from .knowledge.engine import format_weight
    knowledge = _knowledge(args)
    if args.json:
        print(json.dumps(solve_report(knowledge), indent=2, ensure_ascii=False))
        return 0
    record = knowledge.record
    view = f"{record.observer}'s view" if record.observer else "public knowledge"
    print(f"{record.edition.name}: {view}, {len(record.events)} events")
    print(f"Consistent deals: {format_weight(knowledge.consistent_deals)}")
    solution = knowledge.solution()
    if solution:
        names = ", ".join(record.edition.card(c).name for c in solution)
        print(f"The envelope is certain: {names}")
    print()
    with chance_style_used(args.numbers):
        print(knowledge.notepad())
    print()
    print(f"✓ certainly there  · certainly not there; other cells: {MEANINGS[args.numbers]} "
          "(--numbers percent, frequency or fraction)")
    return 0


def _explain(args: argparse.Namespace) -> int:
    knowledge = _knowledge(args)
    try:
        explanation = knowledge.explain(args.card, args.place)
    except KeyError as error:
        print(f"cluedo-lab: {error.args[0]}", file=sys.stderr)
        return 2
    except ValueError as error:
        print(f"cluedo-lab: {error}", file=sys.stderr)
        return 1
    print(explanation)
    return 0


def _dimacs(args: argparse.Namespace) -> int:
    from .knowledge.logic import to_cnf
    from .records.record import Record
    print(to_cnf(Record.load(args.record), encoding=args.encoding).to_dimacs(), end="")
    return 0


def _edition_ref(arg: str) -> str:
    """How a saved file names the edition given as ``arg``: a shipped id as it is, an
    edition file by its absolute path (its id alone would not find it again)."""
    path = Path(arg)
    return str(path.resolve()) if path.suffix == ".toml" and path.is_file() else arg


def _play(args: argparse.Namespace) -> int:
    from .lab.play import play_game, play_log
    from .rules.edition import load_edition
    edition = load_edition(args.edition)
    try:
        edition.check_players(args.players)     # before anything is made per player
    except ValueError as error:
        print(f"cluedo-lab: --players: {error}", file=sys.stderr)
        return 2
    bots = tuple(args.bots.split(",")) if args.bots else ("quick-detective",) * args.players
    if len(bots) != args.players:
        print(f"cluedo-lab: --bots names {len(bots)} bots for {args.players} players",
              file=sys.stderr)
        return 2
    try:
        print(play_log(edition, args.players, args.seed, bots=bots))
        if args.save:
            game, _ = play_game(edition, args.players, args.seed, bots=bots)
            data = game.to_dict()
            if data["edition"] == edition.id:
                data["edition"] = _edition_ref(args.edition)
            write_file(args.save, json.dumps(data, indent=1) + "\n", CluedoLabError)
    except ValueError as error:
        print(f"cluedo-lab: {error}", file=sys.stderr)
        return 2
    return 0


def _record(args: argparse.Namespace) -> int:
    """A seat's record (or the public one) of a saved game, in the record format."""
    from .games.factory import game_from_json
    from .rules.errors import SavedGameError
    from .rules.files import read_text
    text = read_text(args.game, SavedGameError)
    game = game_from_json(text, Path(args.game).name)
    if (args.seat is None) == (not args.public):
        print("cluedo-lab: give --seat NAME or --public", file=sys.stderr)
        return 2
    if args.seat is not None and args.seat not in game.names:
        print(f"cluedo-lab: no seat {args.seat!r}; the players are {list(game.names)}",
              file=sys.stderr)
        return 2
    seat = None if args.public else game.names.index(args.seat)
    record = game.record_for(seat)
    record["edition"] = json.loads(text)["edition"]   # an id, a file's path or a variant
    print(json.dumps(record, indent=1, ensure_ascii=False))
    return 0


def _simulate(args: argparse.Namespace) -> int:
    from .lab.cluster import tournament_executor
    from .lab.tournament import run_tournament
    bots = [b.strip() for b in args.bots.split(",")]
    cores = os.cpu_count() or 1
    here = args.scheduler in (None, "local")       # a cluster's own workers play elsewhere
    workers = min(args.workers, cores) if here else args.workers
    if workers < args.workers:
        # More processes than cores only adds start-up time; the results do not depend on it.
        print(f"cluedo-lab: --workers {args.workers}: this machine has {cores} cores, using "
              f"{workers}", file=sys.stderr)
    try:
        with tournament_executor(args.scheduler, workers) as (executor, width):
            result = run_tournament(args.edition, bots, args.games, seed=args.seed,
                                    players=args.players, workers=width,
                                    progress=args.progress, executor=executor)
    except ValueError as error:
        print(f"cluedo-lab: {error}", file=sys.stderr)
        return 2
    result.command = result.cli_command()
    print(result.to_json(games=args.games_out) if args.json else result.table())
    return 0


def _editions(args: argparse.Namespace) -> int:
    from .rules.edition import all_editions
    for edition in all_editions():
        players = f"{edition.min_players}-{edition.max_players} players"
        print(f"{edition.id:42} {edition.name} ({edition.publisher} {edition.year}), {players}")
    return 0


def _knowledge(args: argparse.Namespace) -> Knowledge:
    from .knowledge.engine import Knowledge
    from .records.record import Record
    return Knowledge(Record.load(args.record), model=args.model)


def _lessons(args: argparse.Namespace) -> int:
    target = Path(args.dir)
    if args.nbgrader:
        from .lab.course import write_course
        graded = write_course(target, force=args.force)
        print(f"an nbgrader course of {len(graded)} lessons written to {target}; release one "
              f"with 'cd {target} && nbgrader generate_assignment {graded[0].parent.name}' "
              "(docs/teaching.md)")
        return 0
    settings = None
    if args.class_file:
        from .lab.class_settings import load_class_settings
        settings = load_class_settings(args.class_file)   # checked before anything is written
        if not args.student:
            raise CluedoLabError("--class: class settings go with --student copies")
    from .lab.lessons import write_lessons
    written = write_lessons(target, student=args.student, force=args.force, keep=args.keep)
    if settings is not None:
        from .lab.class_settings import apply_to_lessons
        written = apply_to_lessons(target, settings, written)
    kind = "student copies (no answers)" if args.student else "notebooks"
    print(f"{len(written)} {kind} written to {target}{' (the others kept)' * args.keep}; "
          f"start with "
          f"'jupyter lab {target / '00_start_here.ipynb'}'. The classroom page (needs voila): "
          f"'JUPYTER_PATH={target / 'app' / 'share' / 'jupyter'} voila "
          f"{target / 'app' / 'classroom.ipynb'} --template=classroom'")
    return 0


class _Unused:
    """Takes the arguments of a subcommand that this run does not parse."""

    def add_argument(self, *args: object, **kwargs: object) -> None:
        pass

    def set_defaults(self, **kwargs: object) -> None:
        pass


def _terminal_columns() -> int:
    """The width help is laid out to, found as ``shutil.get_terminal_size`` finds it (the
    ``COLUMNS`` variable, else the terminal of stdout, else 80). argparse would ask shutil
    each time it checks an argument, and importing shutil, with its compression modules,
    would add a few milliseconds to every command's start."""
    try:
        columns = int(os.environ["COLUMNS"])
    except (KeyError, ValueError):
        columns = 0
    stdout = sys.__stdout__
    if columns <= 0 and stdout is not None:
        try:
            columns = os.get_terminal_size(stdout.fileno()).columns
        except (AttributeError, ValueError, OSError):
            columns = 0
    return columns if columns > 0 else 80


def parser(command: str | None = None) -> argparse.ArgumentParser:
    """The command line. When ``command`` names a subcommand, only its parser is built (the
    usage line still lists them all); the others would cost a tenth of ``cluedo-lab solve``'s
    start. Otherwise (help, a mistyped name) every one is built."""
    layout = partial(argparse.HelpFormatter, width=_terminal_columns() - 2)
    top = argparse.ArgumentParser(prog="cluedo-lab", description=__doc__.splitlines()[0],
                                  formatter_class=layout)
    subparsers = top.add_subparsers(dest="command", required=True)
    names: list[str] = []

    def add_parser(name: str, help: str) -> argparse.ArgumentParser | _Unused:
        names.append(name)
        if command in (None, name):
            return subparsers.add_parser(name, help=help, formatter_class=layout)
        return _Unused()

    solve = add_parser("solve", help="what a record makes certain, and the exact chances")
    solve.add_argument("record", help="a game record (JSON, see docs/records.md)")
    solve.add_argument("--json", action="store_true", help="machine-readable output")
    solve.add_argument("--model", default="uniform", choices=["uniform", "refuter-uniform"])
    solve.add_argument("--numbers", default="percent", choices=list(STYLES),
                       help="how chances are written (default percent; fraction is exact)")
    solve.set_defaults(run=_solve)

    explain = add_parser("explain", help="why a known cell is known")
    explain.add_argument("record")
    explain.add_argument("card")
    explain.add_argument("place", help="a player's name or 'envelope'")
    explain.add_argument("--model", default="uniform", choices=["uniform", "refuter-uniform"])
    explain.set_defaults(run=_explain)

    dimacs = add_parser("dimacs", help="the record as CNF in DIMACS format")
    dimacs.add_argument("record")
    dimacs.add_argument("--encoding", default="auto", choices=["auto", "naive", "sequential"])
    dimacs.set_defaults(run=_dimacs)

    play = add_parser("play", help="watch bots play a seeded game, as a readable log")
    play.add_argument("--edition", required=True,
                      help="an edition id (see 'editions') or an edition file")
    play.add_argument("--players", type=int, required=True)
    play.add_argument("--seed", type=int, default=0)
    play.add_argument("--bots", default="", help="comma-separated, one per seat: "
                      "random, quick-detective or any bot of 'simulate' (default: all "
                      "quick-detective)")
    play.add_argument("--save", metavar="GAME.json", default=None,
                      help="also write the saved game (its deal seed and every action)")
    play.set_defaults(run=_play)

    record = add_parser("record", help="a seat's record of a saved game, ready for "
                        "'solve' and 'explain'")
    record.add_argument("game", help="a saved game (from 'play --save' or Game.to_json)")
    record.add_argument("--seat", default=None, help="the player whose record it is")
    record.add_argument("--public", action="store_true",
                        help="what everybody saw (no observer)")
    record.set_defaults(run=_record)

    simulate = add_parser("simulate", help="a seeded tournament between bots: win rates "
                          "with 95%% intervals, seats rotated fairly")
    simulate.add_argument("--edition", required=True, help="an edition id (see 'editions')")
    simulate.add_argument("--bots", required=True, help="comma-separated, one per seat: random, "
                          "eliminator, detective, detective@P (accuse at probability P), "
                          "infogain, bluffer")
    simulate.add_argument("--games", type=int, required=True)
    simulate.add_argument("--seed", type=int, default=0)
    simulate.add_argument("--players", type=int, default=None,
                          help="seats (default: one per bot; the bot list repeats to fill)")
    simulate.add_argument("--workers", type=int, default=1, help="processes in parallel "
                          "(the result is the same for any number)")
    simulate.add_argument("--scheduler", metavar="ADDRESS", default=None,
                          help="play the games on a Dask cluster: its scheduler's address "
                          "(tcp://host:8786), or 'local' to start one on this machine with "
                          "--workers processes (needs cluedo-lab[cluster]; the result is "
                          "the same)")
    simulate.add_argument("--json", action="store_true", help="machine-readable output")
    simulate.add_argument("--no-games", dest="games_out", action="store_false",
                          help="with --json: the tables only, not every game")
    simulate.add_argument("--progress", action="store_true", help="a progress bar on stderr")
    simulate.set_defaults(run=_simulate)

    editions = add_parser("editions", help="list the editions the kit knows")
    editions.set_defaults(run=_editions)

    lessons = add_parser("lessons", help="copy the lesson notebooks into a folder")
    lessons.add_argument("dir", help="where to write them (created if missing)")
    lessons.add_argument("--force", action="store_true", help="overwrite notebooks already there")
    lessons.add_argument("--keep", action="store_true",
                         help="write only the lessons missing from DIR (keep a learner's work)")
    lessons.add_argument("--student", action="store_true",
                         help="student copies: no answer in them (solution cells removed, "
                         "answer texts sealed, exercise outputs cleared), hints folded")
    lessons.add_argument("--class", dest="class_file", metavar="CLASS.toml",
                         help="with --student: a class's settings (lessons, Reveal, the "
                         "engine's notepad, bots, editions, number style), applied and "
                         "written beside the copies")
    lessons.add_argument("--nbgrader", action="store_true",
                         help="an nbgrader course: DIR/source/<lesson>/<lesson>.ipynb, every "
                         "exercise graded, and DIR/nbgrader_config.py")
    lessons.set_defaults(run=_lessons)
    puzzle = add_parser("puzzle", help="a generated puzzle with one answer, checked by "
                        "the engine (the same one for the same arguments)")
    puzzle.add_argument("--edition", default="cluedo-classic-1949")
    puzzle.add_argument("--kind", help="who-holds, envelope, key-event, "
                        "chance, best-question, contradiction or reach")
    puzzle.add_argument("--level", type=int, default=2, help="difficulty, 1 (easy) to 5")
    puzzle.add_argument("--seed", type=int, default=0)
    puzzle.add_argument("--json", action="store_true", help="the puzzle as JSON: record, "
                        "question, answer, worked solution and measured features")
    puzzle.add_argument("--answer", action="store_true", help="print the answer and the "
                        "worked solution too")
    puzzle.add_argument("--from-review", metavar="GAME.json", help="instead: a puzzle from a "
                        "key moment of the review of a saved game (with --seat)")
    puzzle.add_argument("--seat", help="with --from-review: whose game")
    puzzle.add_argument("--event", type=int, help="with --from-review: the moment (an event "
                        "index of the seat's record; default: the review's key moment)")
    puzzle.set_defaults(run=_puzzle)
    review = add_parser("review", help="a game review for one seat: every question "
                        "graded against the best, the key moments, the curve")
    review.add_argument("game", help="a saved game (or a seat's record: only its own turns)")
    review.add_argument("--seat", help="whose game to review (a player's name)")
    review.add_argument("--json", action="store_true", help="machine-readable output")
    review.add_argument("--html", metavar="REPORT.html", help="also write the review as a page")
    review.set_defaults(run=_review)
    book = add_parser("puzzle-book", help="a printable worksheet of puzzles (HTML, answers "
                      "on the last page), and the same as a notebook of exercises")
    book.add_argument("--edition", action="append", help="an edition to draw from (again "
                      "for more; default: every edition)")
    book.add_argument("--kind", action="append", help="a kind of puzzle (again for more; "
                      "default: every kind)")
    book.add_argument("--level", default="1-5", help="a level or a range, e.g. 2 or 1-5")
    book.add_argument("--count", type=int, default=20)
    book.add_argument("--seed", type=int, default=0)
    book.add_argument("--out", required=True, help="the HTML file to write")
    book.add_argument("--notebook", help="also write the puzzles as a notebook (.ipynb)")
    book.add_argument("--student", action="store_true",
                      help="the students' copies: no answers page, no solution cells")
    book.set_defaults(run=_puzzle_book)
    grade = add_parser("grade", help="a class report from a folder of handed-in "
                       "notebooks (the exercises' saved attempts)")
    grade.add_argument("submissions", help="the folder of notebooks (one per student, or a "
                       "folder per student)")
    grade.add_argument("--out", required=True, help="the HTML report to write")
    grade.add_argument("--csv", help="also write one row per student and exercise (CSV)")
    grade.set_defaults(run=_grade)
    if command is None:
        return top
    if command not in names:
        return parser()  # a mistyped name: argparse's error lists every subcommand
    subparsers.metavar = "{" + ",".join(names) + "}"  # the usage line as with all built
    return top


def _grade(args: argparse.Namespace) -> int:
    from .lab.grading import grade_folder
    from .views.grade_report import report_html
    try:
        report = grade_folder(args.submissions)
    except NotADirectoryError as error:
        raise CluedoLabError(str(error)) from None
    Path(args.out).write_text(report_html(report), encoding="utf-8")
    if args.csv:
        Path(args.csv).write_text(report.to_csv(), encoding="utf-8")
    print(f"{len(report.students)} students, {len(report.exercises)} exercises -> {args.out}"
          + (f" and {args.csv}" if args.csv else "")
          + (f"; {len(report.problems)} files not counted (listed in the report)"
             if report.problems else ""))
    return 0


def _puzzle(args: argparse.Namespace) -> int:
    from .lab.puzzle_kinds import generate
    if args.from_review:
        from .lab.review import load_review, puzzle_from_review
        puzzle = puzzle_from_review(load_review(args.from_review, args.seat), args.event)
    elif args.kind is None:
        raise CluedoLabError("puzzle: give --kind, or --from-review GAME.json --seat NAME")
    else:
        puzzle = generate(args.edition, args.kind, args.level, args.seed)
    print(puzzle.to_json() if args.json else puzzle.text(answer=args.answer))
    return 0


def _review(args: argparse.Namespace) -> int:
    from .lab.review import load_review
    review = load_review(args.game, args.seat)
    if args.html:
        from .views.review import review_page
        Path(args.html).write_text(review_page(review), encoding="utf-8")
    print(review.to_json() if args.json else review.text())
    return 0


def _levels(text: str) -> list[int]:
    low, _, high = text.partition("-")
    try:
        levels = list(range(int(low), int(high or low) + 1))
    except ValueError:
        levels = []
    if not levels or not set(levels) <= {1, 2, 3, 4, 5}:
        raise CluedoLabError(f"--level: expected a level 1-5 or a range like 1-5, not {text!r}")
    return levels


def _puzzle_book(args: argparse.Namespace) -> int:
    from .lab.puzzle_kinds import make_book
    from .views.puzzle_book import book_html, book_notebook
    if not 1 <= args.count <= 200:
        raise CluedoLabError(f"--count: 1 to 200 puzzles, not {args.count}")
    puzzles = make_book(_levels(args.level), args.count, args.seed, args.edition, args.kind)
    write_file(args.out, book_html(puzzles, student=args.student), CluedoLabError)
    if args.notebook:
        write_file(args.notebook, json.dumps(book_notebook(puzzles, student=args.student),
                                             indent=1, ensure_ascii=False) + "\n",
                   CluedoLabError)
    short = "" if len(puzzles) == args.count else \
        f" (of {args.count} asked: the search found no more for those slots)"
    print(f"{len(puzzles)} puzzles{short} -> {args.out}"
          + (f" and {args.notebook}" if args.notebook else ""))
    return 0


PATH_ARGUMENTS = ("record", "game", "save", "out", "notebook", "dir")
"""Arguments that name a file or folder: an empty one is a mistake, not the current folder."""

ASCII_MARKS = {"✓": "+", "·": ".", "✗": "x", "×": "x", "–": "-", "—": "-", "…": "...",
               "→": "->", "≈": "~", "≤": "<=", "≥": ">=", "½": "1/2"}


def _ascii_marks(error: UnicodeError) -> tuple[str, int]:
    """An encoding error handler: the notepad's marks as ASCII look-alikes, anything else as
    a backslash escape (a terminal that is not UTF-8 still gets a readable table)."""
    assert isinstance(error, UnicodeEncodeError)
    text = error.object[error.start:error.end]
    out = "".join(ASCII_MARKS.get(c) or c.encode("ascii", "backslashreplace").decode()
                  for c in text)
    return out, error.end


codecs.register_error("cluedo-lab-ascii", _ascii_marks)


def _plain_streams() -> None:
    """Let stdout and stderr that cannot write UTF-8 fall back to ASCII marks."""
    for stream in (sys.stdout, sys.stderr):
        encoding = getattr(stream, "encoding", None) or "ascii"
        try:
            "✓·".encode(encoding)
        except (UnicodeEncodeError, LookupError):
            reconfigure = getattr(stream, "reconfigure", None)
            if reconfigure is not None:
                reconfigure(errors="cluedo-lab-ascii")


def main(argv: Sequence[str] | None = None) -> int:
    _plain_streams()
    words = sys.argv[1:] if argv is None else argv
    command = words[0] if words and not words[0].startswith("-") else None
    args = parser(command).parse_args(argv)
    for name in PATH_ARGUMENTS:
        if getattr(args, name, None) == "":
            print(f"cluedo-lab: {name}: expected a path, got an empty one", file=sys.stderr)
            return 2
    try:
        run: Callable[[argparse.Namespace], int] = args.run
        return run(args)
    except Contradiction as error:
        # The first line says what is wrong; the explanation follows, line by line.
        lines = str(error).split("\n")
        print("\n".join(f"cluedo-lab: contradiction: {shown(lines[0])}" if i == 0 else
                        shown(line) for i, line in enumerate(lines)), file=sys.stderr)
        return 1
    except CluedoLabError as error:
        print(f"cluedo-lab: {_one_line(error)}", file=sys.stderr)
        return 2
    except BrokenPipeError:
        # The reader stopped early (``solve ... | head``): not an error of ours. Point stdout
        # at nothing so the interpreter's final flush does not fail again.
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 0
    except OSError as error:
        where = f"{shown(error.filename)}: " if error.filename else ""
        print(f"cluedo-lab: {where}{shown(error.strerror or str(error))}", file=sys.stderr)
        return 2


def _one_line(error: Exception) -> str:
    """An error as one line (a conflict listing stays readable on one line too), any control
    or direction character in it escaped."""
    return shown(" ".join(str(error).split("\n")))


if __name__ == "__main__":
    sys.exit(main())
