"""The Telegram adapter's own words (the application writes everything else): the deep-link button, the
answer to a button that is not ours, and the command menu, in English, Russian and Ukrainian."""

from __future__ import annotations

WORDS: dict[str, dict[str, str]] = {
    "open_private": {
        "en": "Open my chat with the bot",
        "ru": "Открыть чат с ботом",
        "uk": "Відкрити чат із ботом",
    },
    "unknown_button": {
        "en": "This button is no longer valid.",
        "ru": "Эта кнопка больше не действует.",
        "uk": "Ця кнопка більше не діє.",
    },
    "cmd_new": {"en": "Start a new table: /new thousand|deberts|kozel", "ru": "Новый стол: /new thousand|deberts|kozel",
                "uk": "Новий стіл: /new thousand|deberts|kozel"},
    "cmd_join": {"en": "Take a seat at the table", "ru": "Сесть за стол", "uk": "Сісти за стіл"},
    "cmd_leave": {"en": "Leave the table", "ru": "Выйти из-за стола", "uk": "Вийти з-за столу"},
    "cmd_stop": {"en": "Stop the game at this table", "ru": "Остановить игру за этим столом",
                 "uk": "Зупинити гру за цим столом"},
    "cmd_rules": {"en": "Rules of the game", "ru": "Правила игры", "uk": "Правила гри"},
    "cmd_settings": {"en": "Table conventions", "ru": "Договорённости стола", "uk": "Домовленості столу"},
    "cmd_lang": {"en": "Language: /lang en|ru|uk", "ru": "Язык: /lang en|ru|uk", "uk": "Мова: /lang en|ru|uk"},
    "cmd_score": {"en": "Score of the current game", "ru": "Счёт текущей партии", "uk": "Рахунок поточної партії"},
    "cmd_top": {"en": "Best players of this chat", "ru": "Лучшие игроки чата", "uk": "Найкращі гравці чату"},
    "cmd_me": {"en": "My rating and games", "ru": "Мой рейтинг и партии", "uk": "Мій рейтинг і партії"},
    "cmd_history": {"en": "Finished games", "ru": "Сыгранные партии", "uk": "Зіграні партії"},
    "cmd_export": {"en": "A game record as a file", "ru": "Запись партии файлом", "uk": "Запис партії файлом"},
    "cmd_help": {"en": "How to play with the bot", "ru": "Как играть с ботом", "uk": "Як грати з ботом"},
}


def lang_of(language: str | None) -> str:
    """``"ru-RU"`` -> ``"ru"``; anything we do not speak -> ``"en"``."""
    code = (language or "en").replace("_", "-").split("-")[0].lower()
    return code if code in ("en", "ru", "uk") else "en"


def say(language: str | None, key: str) -> str:
    return WORDS[key][lang_of(language)]
