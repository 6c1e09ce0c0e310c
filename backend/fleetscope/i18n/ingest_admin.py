"""Messages of the Administration's ingestion pages (API tokens, dead letters, re-derivation
jobs), in English and German; loaded with the catalogue by ``fleetscope.i18n``."""

from fleetscope.i18n.text import define

DEAD_LETTER_NOT_FOUND = define(
    "deadLetter.not_found",
    en="dead letter {letter} not found",
    de="Unzustellbare Nachricht {letter} nicht gefunden",
)
DEAD_LETTER_PAYLOAD_CUT = define(
    "deadLetter.payload_cut",
    en="payload: only the first {kept} of {size} bytes were kept; send the whole payload",
    de="payload: nur die ersten {kept} von {size} Bytes wurden aufbewahrt; bitte die ganze "
    "Nachricht senden",
)
JOB_NOT_FOUND = define("job.not_found", en="job {job} not found", de="Auftrag {job} nicht gefunden")
JOB_REASON_UNKNOWN = define(
    "job.reason_unknown",
    en="reason: {reason!r} is not one of {allowed}",
    de="reason: {reason!r} ist keiner von {allowed}",
)
