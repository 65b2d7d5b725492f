"""A rulebook as numbered sentences, so that `cite: {section, sentence}` means one thing.

The numbering (docs/analysis.md): a *heading* is a line that is not a bullet, has at most seven
words and does not end in sentence punctuation; it opens a section, named by its text (a
repeated name gets " (2)", " (3)"...). Every other non-blank line is split into sentences after
'.', '!' or '?' followed by a space and a capital, a digit, a bullet or a quote. Sentences are
numbered from 1 within their section; text before the first heading is section "(start)".
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

from ..errors import Loc, Problem, SpecError

BULLET = re.compile(r"^\s*(?:[•\-*]|\d+[.)])\s+")
SPLIT = re.compile(r"(?<=[.!?])[\"”’)]?\s+(?=[A-Z0-9À-Ý\"“(•])")
END = tuple(".!?:;)\"”’")
START = "(start)"


@dataclass(frozen=True)
class Sentence:
    section: str
    number: int
    line: int
    text: str

    @property
    def key(self) -> tuple[str, int]:
        return (self.section, self.number)


@dataclass
class Rulebook:
    file: str
    sentences: list[Sentence]

    def sections(self) -> list[str]:
        return list(dict.fromkeys(s.section for s in self.sentences))

    def get(self, section: str, number: int) -> Sentence | None:
        for s in self.sentences:
            if s.section == section and s.number == number:
                return s
        return None


def is_heading(line: str) -> bool:
    text = line.strip()
    return bool(text) and not BULLET.match(line) and len(text.split()) <= 7 and not text.endswith(END)


def parse(text: str, file: str = "<rulebook>") -> Rulebook:
    out: list[Sentence] = []
    section, n, seen = START, 0, {}
    for ln, line in enumerate(text.splitlines(), 1):
        if not line.strip():
            continue
        if is_heading(line):
            name = line.strip()
            seen[name] = seen.get(name, 0) + 1
            section = name if seen[name] == 1 else f"{name} ({seen[name]})"
            n = 0
            continue
        body = BULLET.sub("", line).strip()
        for part in SPLIT.split(body):
            if part.strip():
                n += 1
                out.append(Sentence(section, n, ln, part.strip()))
    return Rulebook(file, out)


def load(path: str | Path) -> Rulebook:
    try:
        text = Path(path).read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as e:
        raise SpecError([Problem(Loc(str(path), 0, 0), f"cannot read rulebook: {e}")]) from None
    book = parse(text, str(path))
    if not book.sentences:  # an empty file: every citation would dangle, as if the spec were wrong
        raise SpecError([Problem(Loc(str(path), 0, 0), "no sentences in it; expected a rulebook's text")])
    return book
