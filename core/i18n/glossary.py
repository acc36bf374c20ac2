"""The game terms as players say them in each language, for translators and for the catalog tests.

Every msgid that uses an English term must use the Russian and Ukrainian term in its translations (any form:
the stems below match the declined words). ``docs/glossary.md`` shows the same table with explanations.
"""

from __future__ import annotations

from typing import NamedTuple


class Term(NamedTuple):
    game: str  # "thousand", "deberts", "kozel" or "all"
    en: str  # the English word as it appears in msgids (matched at a word start, case-insensitive)
    ru: str
    uk: str
    ru_stems: tuple[str, ...]
    uk_stems: tuple[str, ...]


TERMS: tuple[Term, ...] = (
    Term("all", "trump", "козырь", "козир", ("козыр",), ("козир",)),
    Term("all", "trick", "взятка", "взятка", ("взят",), ("взят",)),
    Term("all", "redeal", "пересдача", "перездача", ("пересда",), ("перезда",)),
    Term("all", "pass", "пас", "пас", ("пас",), ("пас",)),
    Term("thousand", "talon", "прикуп", "прикуп", ("прикуп",), ("прикуп",)),
    Term("thousand", "marriage", "марьяж", "марʼяж", ("марьяж",), ("марʼяж",)),
    Term("thousand", "barrel", "бочка", "бочка", ("бочк",), ("бочк", "бочц")),
    Term("thousand", "bolt", "болт", "болт", ("болт",), ("болт",)),
    Term("thousand", "dump truck", "самосвал", "самоскид", ("самосвал",), ("самоскид",)),
    Term("thousand", "golden round", "золотой кон", "золотий кон", ("золот",), ("золот",)),
    Term("thousand", "concede", "расписать", "розписати", ("распис",), ("розпис",)),
    Term("thousand", "stand still", "стоять", "стояти", ("стоят",), ("стоїт",)),
    Term("deberts", "terz", "терц", "терц", ("терц",), ("терц",)),
    Term("deberts", "berz", "берц", "берц", ("берц",), ("берц",)),
    Term("deberts", "bella", "белла", "бела", ("белл",), ("бел",)),
    Term("deberts", "bait", "байд", "байд", ("байд",), ("байд",)),
    Term("deberts", "hanging", "висячие", "висячі", ("вис",), ("вис",)),
    Term("deberts", "runs", "комбинации", "комбінації", ("комбинац",), ("комбінац",)),
    Term("deberts", "defenders", "вистующие", "вістувальники", ("вистующ",), ("вістувальн",)),
    Term("kozel", "tile", "кость", "кістка", ("кост", "кость"), ("кіст",)),
    Term("kozel", "bazaar", "базар", "базар", ("базар",), ("базар",)),
    Term("kozel", "knock", "стучать", "стукати", ("стуч",), ("стука",)),
    Term("kozel", "fish", "рыба", "риба", ("рыб",), ("риб",)),
    Term("kozel", "kozel", "козёл", "козел", ("козё", "козл"), ("козе", "козл")),
)
