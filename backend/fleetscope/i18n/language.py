"""The language of a request, from its ``Accept-Language`` header (RFC 9110, section 12.5.4)."""

from fleetscope.i18n.text import DEFAULT_LANGUAGE, LANGUAGES, Language

_MAX_HEADER_LENGTH = 1000  # a real header is a few dozen characters; ignore anything absurd


def _quality(parameters: list[str]) -> float:
    for parameter in parameters:
        name, _, value = parameter.partition("=")
        if name.strip().lower() == "q":
            try:
                return min(max(float(value.strip()), 0.0), 1.0)
            except ValueError:
                return 0.0
    return 1.0


def negotiate_language(header: str | None) -> Language:
    """The supported language the client prefers most; English when it names none of them.

    ``de``, ``de-DE`` and ``de;q=0.9,en;q=0.8`` give German; ``*`` and unknown languages
    give English. Of equal qualities the first named wins.
    """
    if not header or len(header) > _MAX_HEADER_LENGTH:
        return DEFAULT_LANGUAGE
    best: Language = DEFAULT_LANGUAGE
    best_quality = 0.0
    for item in header.split(","):
        tag, *parameters = item.split(";")
        primary = tag.strip().lower().split("-", 1)[0]
        quality = _quality(parameters)
        if quality <= best_quality:
            continue
        for language in LANGUAGES:
            if primary == language:
                best, best_quality = language, quality
        if primary == "*":
            best, best_quality = DEFAULT_LANGUAGE, quality
    return best
