"""The teacher's guide's tables, read off the lessons, so the guide never disagrees with them.

Each lesson notebook says in its metadata (``metadata.cluedo_lab``) what it teaches, how many
minutes it takes, which lessons come before it and which of its exercises make good homework;
its title is its first heading and its exercises are its exercise cells' widgets, numbered as
the nbgrader course numbers them (``answer_1``, ``answer_2``, ...). :func:`update_guide`
rewrites the generated parts of ``docs/teaching.md`` (between ``<!-- generated: NAME -->`` and
``<!-- end generated -->``); ``python -m cluedo_lab.lab.guide docs/teaching.md`` runs it, and a
test fails when the file is out of date.
"""

from __future__ import annotations

import ast
import json
import re
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..rules.data import lessons_dir
from ..rules.errors import CluedoLabError
from .course import course_lessons, shown_exercises
from .lessons import EXERCISE, cell_tags

__all__ = ["Lesson", "lessons", "lesson_table", "exercise_lists", "update_guide"]


@dataclass(frozen=True)
class Lesson:
    """What the guide says of one lesson."""

    number: str
    title: str
    teaches: str
    minutes: int
    after: tuple[str, ...]
    questions: tuple[str, ...]
    homework: tuple[int, ...]


def _prompt(cell: str, shown: str) -> str | None:
    """The question an exercise asks, when its cell writes it out: the prompt of the call
    that makes ``shown`` (an f-string's fields as "…")."""
    for node in ast.walk(ast.parse(cell)):
        if not (isinstance(node, ast.Assign) and isinstance(node.value, ast.Call)
                and any(ast.unparse(t) == shown for t in node.targets)):
            continue
        call = node.value
        given = [k.value for k in call.keywords if k.arg == "prompt"]
        if isinstance(call.func, ast.Name) and call.func.id == "Exercise" and call.args:
            given.append(call.args[0])
        for text in given:
            if isinstance(text, ast.Constant) and isinstance(text.value, str):
                return text.value
            if isinstance(text, ast.JoinedStr):
                return "".join(str(p.value) if isinstance(p, ast.Constant) else "…"
                               for p in text.values)
    return None


_END = re.compile(r"(?<!Mrs)(?<!Mr)(?<!Dr)(?<!Rev)(?<!St)[.?!](?=\s|$)")
"""The end of a sentence (not the full stop of "Mrs." or "Rev.")."""


def _asked(markdown: str) -> str:
    """The question a lesson's "**3.** ..." cell asks (its last sentence that asks, with the
    sentence before it when it is short), or a heading's words."""
    if markdown.lstrip().startswith("#"):
        return markdown.strip().splitlines()[0].lstrip("#").strip()
    text = " ".join(re.sub(r"^\*\*\d+\.\*\*\s*", "", markdown.strip()).split())
    sentences, start = [], 0
    for end in _END.finditer(text):
        sentences.append(text[start:end.end()].strip())
        start = end.end()
    sentences.append(text[start:].strip())
    asking = [i for i, sentence in enumerate(sentences) if sentence.endswith("?")]
    if not asking:
        return sentences[0]
    last = asking[-1]
    return " ".join(sentences[last - 1:last + 1] if last and len(sentences[last]) < 40
                    else sentences[last:last + 1])


def _lesson(name: Path, notebook: dict[str, Any]) -> Lesson:
    about = notebook.get("metadata", {}).get("cluedo_lab")
    if not isinstance(about, dict):
        raise CluedoLabError(f"{name}: metadata.cluedo_lab is missing (teaches, minutes, after, "
                             "homework)")
    cells = notebook.get("cells", [])
    heading = next(("".join(c["source"]).splitlines()[0] for c in cells
                    if c.get("cell_type") == "markdown"), name.stem)
    title = re.sub(r"^#\s*(\d+\s+)?", "", heading).split(":")[0].strip()
    questions: list[str] = []
    last_markdown = ""
    for cell in cells:
        source = "".join(cell.get("source", ""))
        if cell.get("cell_type") == "markdown" and re.match(r"\*\*\d+\.\*\*|#", source):
            last_markdown = source
        if EXERCISE in cell_tags(cell) and cell.get("cell_type") == "code":
            questions += [_prompt(source, shown) or _asked(last_markdown)
                          for shown in shown_exercises(source)]
    try:
        return Lesson(name.name[:2], title, str(about["teaches"]), int(about["minutes"]),
                      tuple(map(str, about["after"])), tuple(questions),
                      tuple(map(int, about["homework"])))
    except (KeyError, TypeError, ValueError) as error:
        raise CluedoLabError(f"{name}: metadata.cluedo_lab needs teaches, minutes, after and "
                             f"homework ({error})") from None


def lessons(source: Path | None = None) -> list[Lesson]:
    """Every graded lesson, in order, as the guide describes it."""
    root = source or lessons_dir()
    return [_lesson(name, json.loads((root / name).read_text(encoding="utf-8")))
            for name in course_lessons(root)]


def lesson_table(all_lessons: list[Lesson]) -> str:
    """The table of lessons: what each teaches, its time, what comes before, its exercises."""
    rows = ["| lesson | teaches | time | after | exercises |", "|---|---|---|---|---|"]
    rows += [f"| {x.number} {x.title} | {x.teaches} | {x.minutes} min | "
             f"{', '.join(x.after) or 'none'} | {len(x.questions)} |" for x in all_lessons]
    total = sum(len(x.questions) for x in all_lessons)
    minutes = sum(x.minutes for x in all_lessons)
    return "\n".join([*rows, f"| all {len(all_lessons)} | | {minutes // 60} h {minutes % 60} min"
                             f" | | {total} |"])


def exercise_lists(all_lessons: list[Lesson]) -> str:
    """Every lesson's exercises by number (the numbers nbgrader grades them by), ★ homework."""
    total = sum(len(x.questions) for x in all_lessons)
    starred = sum(len(x.homework) for x in all_lessons)
    parts = [f"{total} exercises in {len(all_lessons)} lessons, {starred} of them starred as "
             "homework."]
    for x in all_lessons:
        parts += ["", f"**{x.number} {x.title}** ({len(x.questions)})", ""]
        parts += [f"{i}. {q}{' ★' if i in x.homework else ''}"
                  for i, q in enumerate(x.questions, start=1)]
    return "\n".join(parts)


GENERATED = re.compile(r"(<!-- generated: (\w[\w-]*) -->\n).*?(<!-- end generated -->)", re.S)


def update_guide(text: str, source: Path | None = None) -> str:
    """``text`` (the guide) with every generated part made again from the lessons."""
    all_lessons = lessons(source)
    parts = {"lessons": lesson_table(all_lessons), "exercises": exercise_lists(all_lessons)}

    def fill(match: re.Match[str]) -> str:
        if match.group(2) not in parts:
            raise CluedoLabError(f"the guide asks for an unknown generated part "
                                 f"{match.group(2)!r}; known: {', '.join(parts)}")
        return f"{match.group(1)}{parts[match.group(2)]}\n{match.group(3)}"

    return GENERATED.sub(fill, text)


def main(argv: list[str] | None = None) -> int:
    """``python -m cluedo_lab.lab.guide docs/teaching.md``: rewrite the guide in place."""
    paths = [Path(a) for a in (argv if argv is not None else sys.argv[1:])]
    for path in paths:
        path.write_text(update_guide(path.read_text(encoding="utf-8")), encoding="utf-8")
        print(f"{path}: generated parts written")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
