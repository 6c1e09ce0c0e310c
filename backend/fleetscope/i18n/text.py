"""Texts in English and German: a ``Template`` per message id, a ``Message`` per occurrence.

Exceptions carry a ``Message`` (the template and its parameters), not a finished string, so
the API answers in the language of the request while ``str(message)`` stays English for
logs, the CLI and tests.
"""

from collections.abc import Mapping
from dataclasses import dataclass, field
from string import Formatter
from typing import Literal

Language = Literal["en", "de"]
LANGUAGES: tuple[Language, ...] = ("en", "de")
DEFAULT_LANGUAGE: Language = "en"


def placeholders(template: str) -> frozenset[str]:
    """The parameter names ``template`` uses (``{name}``, ``{name!r}``)."""
    return frozenset(name for _, name, _, _ in Formatter().parse(template) if name)


@dataclass(frozen=True)
class Template:
    """One message of the catalogue: its id and its text in every language."""

    id: str
    en: str
    de: str

    def text(self, language: Language) -> str:
        return self.de if language == "de" else self.en

    def __call__(self, **params: object) -> "Message":
        expected = placeholders(self.en)
        if set(params) != expected:
            # A programming error; failing here names it instead of a KeyError when rendering.
            raise TypeError(f"message {self.id!r} takes {sorted(expected)}, got {sorted(params)}")
        return Message(self, params)


@dataclass(frozen=True)
class Message:
    """A template with its parameters; rendered when the language is known."""

    template: Template
    params: Mapping[str, object] = field(default_factory=dict)

    @property
    def id(self) -> str:
        return self.template.id

    def render(self, language: Language = DEFAULT_LANGUAGE) -> str:
        values = {
            name: value.render(language) if isinstance(value, Message) else value
            for name, value in self.params.items()
        }
        return self.template.text(language).format_map(values)

    def __str__(self) -> str:
        return self.render(DEFAULT_LANGUAGE)


CATALOGUE: dict[str, Template] = {}
"""Every template by id; filled by ``define`` as the message modules are imported."""


def define(message_id: str, *, en: str, de: str) -> Template:
    """A catalogue entry; ``en`` and ``de`` use the same parameters (the tests check it)."""
    if message_id in CATALOGUE:
        raise ValueError(f"message id {message_id!r} is defined twice")
    template = Template(message_id, en=en, de=de)
    CATALOGUE[message_id] = template
    return template


Text = Message | str
"""What an error carries: a catalogue message, or a plain text shown as is in every language."""


def render(text: Text, language: Language) -> str:
    return text.render(language) if isinstance(text, Message) else text
