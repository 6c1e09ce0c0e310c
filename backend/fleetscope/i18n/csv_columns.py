"""Column titles of the CSV exports the server writes, in English and German (the chart
CSVs are written by the frontend, with its own texts)."""

# The error history (``analytics/failures/error_history.py``); ``{zone}``: the sites' time
# zone the times are written in.
ERROR_HISTORY_COLUMNS = {
    "en": [
        "vehicle id", "vehicle", "error type", "level", "description", "start ({zone})",
        "end ({zone})", "duration (s)", "order", "x (m)", "y (m)", "map",
    ],
    "de": [
        "Fahrzeug-ID", "Fahrzeug", "Fehlertyp", "Stufe", "Beschreibung", "Beginn ({zone})",
        "Ende ({zone})", "Dauer (s)", "Auftrag", "x (m)", "y (m)", "Karte",
    ],
}  # fmt: skip
# The error levels in German, as the pages name them; English keeps VDA 5050's own words.
LEVEL_NAMES = {
    "de": {"WARNING": "Warnung", "URGENT": "Dringend", "CRITICAL": "Kritisch", "FATAL": "Fatal"}
}
# Vehicles of sites in different zones: each time in its site's zone, named in this column.
ZONE_COLUMN = {"en": "time zone", "de": "Zeitzone"}
# The title's zone then.
LOCAL_TIME = {"en": "site time", "de": "Ortszeit"}
