"""Messages for users in English and German.

``messages`` holds the catalogue of the API's own messages, ``validation`` the texts of
request-validation errors, ``refusals`` the reasons ingestion refuses a message for and
``parser_details`` the JSON parsers' and schema validator's own words inside them;
importing this package loads them all, so ``CATALOGUE`` is complete.
"""

from fleetscope.i18n import (
    admin_messages,
    ingest_admin,
    messages,
    parser_details,
    refusals,
    validation,
)
from fleetscope.i18n.language import negotiate_language
from fleetscope.i18n.text import (
    CATALOGUE,
    DEFAULT_LANGUAGE,
    LANGUAGES,
    Language,
    Message,
    Template,
    Text,
    render,
)

__all__ = [
    "CATALOGUE",
    "DEFAULT_LANGUAGE",
    "LANGUAGES",
    "Language",
    "Message",
    "Template",
    "Text",
    "admin_messages",
    "ingest_admin",
    "messages",
    "negotiate_language",
    "parser_details",
    "refusals",
    "render",
    "validation",
]
