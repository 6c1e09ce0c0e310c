"""Every message the API can show a user, in English and German.

A message starts with the field it is about (``to:``, ``widgets:``), spelled as in the API,
so it stays the same in both languages. Parameters are named in braces; ``!r`` quotes a
text. Why ingestion refuses a message is in ``refusals``; CLI output and logs stay English.
"""

from fleetscope.i18n.text import define

# --- Requests and sessions -------------------------------------------------------------------

NOT_FOUND_PATH = define("http.not_found", en="not found: {path}", de="nicht gefunden: {path}")
METHOD_NOT_ALLOWED = define(
    "http.method_not_allowed",
    en="method {method} not allowed on {path}",
    de="Methode {method} ist auf {path} nicht erlaubt",
)
INTERNAL_ERROR = define("http.internal_error", en="internal error", de="interner Fehler")
INVALID_REQUEST = define("http.invalid_request", en="invalid request", de="ungültige Anfrage")
BODY_NOT_PARSABLE = define(
    "http.body_not_parsable",
    en="body: could not be read (expected JSON in UTF-8)",
    de="body: konnte nicht gelesen werden (erwartet: JSON in UTF-8)",
)
BODY_NOT_JSON = define(
    "http.body_not_json",
    en="body: send it as JSON (Content-Type: application/json), not as {content_type}",
    de="body: als JSON senden (Content-Type: application/json), nicht als {content_type}",
)
WHOLE_REQUEST = define("http.whole_request", en="request", de="Anfrage")
INVALID_CREDENTIALS = define(
    "auth.invalid_credentials",
    en="invalid email or password",
    de="E-Mail-Adresse oder Passwort ist falsch",
)
TOO_MANY_LOGIN_ATTEMPTS = define(
    "auth.too_many_attempts",
    en="too many failed login attempts; try again in {seconds} seconds",
    de="zu viele fehlgeschlagene Anmeldeversuche; bitte in {seconds} Sekunden erneut versuchen",
)
TOO_MANY_PAGE_VIEWS = define(
    "events.too_many_page_views",
    en="more than {limit} page views a minute; try again in {seconds} seconds",
    de="mehr als {limit} Seitenaufrufe pro Minute; bitte in {seconds} Sekunden erneut versuchen",
)
CSRF_FAILED = define(
    "auth.csrf_failed",
    en="missing or invalid CSRF token",
    de="CSRF-Token fehlt oder ist ungültig",
)

# --- Services of this server -----------------------------------------------------------------

FACT_STORE_NOT_OPEN = define(
    "service.fact_store_not_open",
    en="the fact store is not open yet; try again in a moment",
    de="der Faktenspeicher ist noch nicht geöffnet; bitte gleich noch einmal versuchen",
)
INGESTION_NOT_RUNNING = define(
    "service.ingestion_not_running",
    en="ingestion is not running on this server",
    de="auf diesem Server läuft keine Datenaufnahme",
)
LIVE_UNAVAILABLE = define(
    "service.live_unavailable",
    en="live updates are not available; try again in a moment",
    de="Live-Aktualisierungen sind nicht verfügbar; bitte gleich noch einmal versuchen",
)
SERVER_BUSY = define(
    "service.busy",
    en="the server is busy; try again in a moment",
    de="der Server ist ausgelastet; bitte gleich noch einmal versuchen",
)
QUESTION_TOO_LARGE = define(
    "service.question_too_large",
    en="this question needs more memory than the server may use; choose a shorter period "
    "or fewer vehicles",
    de="diese Abfrage braucht mehr Speicher, als der Server verwenden darf; bitte einen "
    "kürzeren Zeitraum oder weniger Fahrzeuge wählen",
)
INVALID_API_TOKEN = define(
    "ingest.invalid_token",
    en="invalid or missing API token",
    de="API-Token fehlt oder ist ungültig",
)
BODY_TOO_LARGE = define(
    "ingest.body_too_large",
    en="request body exceeds the limit of {limit} bytes",
    de="der Inhalt der Anfrage überschreitet die Grenze von {limit} Bytes",
)
BODY_TOO_MANY_LINES = define(
    "ingest.body_too_many_lines",
    en="request body has more than {limit} lines (FLEETSCOPE_INGEST_MAX_LINES): send smaller "
    "batches",
    de="der Inhalt der Anfrage hat mehr als {limit} Zeilen (FLEETSCOPE_INGEST_MAX_LINES): "
    "kleinere Stapel senden",
)
BODY_INFLATES_TOO_LARGE = define(
    "ingest.body_inflates_too_large",
    en="request body exceeds the limit of {limit} bytes once gzip-decoded",
    de="der Inhalt der Anfrage überschreitet entpackt (gzip) die Grenze von {limit} Bytes",
)
BODY_NOT_GZIP = define(
    "ingest.body_not_gzip",
    en="request body is not complete gzip data (Content-Encoding: gzip): {detail}",
    de="der Inhalt der Anfrage sind keine vollständigen gzip-Daten (Content-Encoding: gzip): "
    "{detail}",
)
UNSUPPORTED_CONTENT_ENCODING = define(
    "ingest.unsupported_content_encoding",
    en="Content-Encoding {coding!r} is not supported: send the body as it is or as gzip",
    de="Content-Encoding {coding!r} wird nicht unterstützt: den Inhalt unverändert oder als "
    "gzip senden",
)
BODY_TOO_SLOW = define(
    "http.body_too_slow",
    en="request body did not arrive within {seconds} s",
    de="der Inhalt der Anfrage ist nicht innerhalb von {seconds} s angekommen",
)
HEAD_TOO_LARGE = define(
    "http.head_too_large",
    en="request line and headers have {size} bytes, at most {limit} allowed "
    "(FLEETSCOPE_MAX_REQUEST_HEAD_BYTES)",
    de="Anfragezeile und Kopfzeilen haben {size} Bytes, höchstens {limit} sind erlaubt "
    "(FLEETSCOPE_MAX_REQUEST_HEAD_BYTES)",
)
INGESTION_FAILED = define(
    "ingest.failed",
    en="the fact store could not write; please send the same request again (lines already "
    "stored count as duplicates)",
    de="der Faktenspeicher konnte nicht schreiben; bitte dieselbe Anfrage erneut senden "
    "(bereits gespeicherte Zeilen zählen als Duplikate)",
)

# --- Fields in general -----------------------------------------------------------------------

MUST_NOT_BE_EMPTY = define(
    "field.empty", en="{field}: must not be empty", de="{field}: darf nicht leer sein"
)
TOO_LONG = define(
    "field.too_long",
    en="{field}: longer than {max_length} characters",
    de="{field}: länger als {max_length} Zeichen",
)

# --- Organizations, sites, users -------------------------------------------------------------

ORGANIZATION_EXISTS = define(
    "organization.exists",
    en="organization {name!r} already exists",
    de="Organisation {name!r} existiert bereits",
)
ORGANIZATION_NOT_FOUND = define(
    "organization.not_found",
    en="organization {name!r} not found",
    de="Organisation {name!r} nicht gefunden",
)
UNKNOWN_TIME_ZONE = define(
    "site.unknown_time_zone",
    en="timeZone: unknown time zone {time_zone!r} (use an IANA name like Europe/Berlin)",
    de="timeZone: unbekannte Zeitzone {time_zone!r} (einen IANA-Namen wie Europe/Berlin angeben)",
)
SITE_EXISTS = define(
    "site.exists",
    en="site {name!r} already exists in organization {organization!r}",
    de="Standort {name!r} gibt es in der Organisation {organization!r} bereits",
)
SITE_NOT_FOUND = define(
    "site.not_found", en="site {site} not found", de="Standort {site} nicht gefunden"
)
TOKEN_NOT_FOUND = define(
    "token.not_found", en="token {token} not found", de="Token {token} nicht gefunden"
)
MQTT_INTERFACE_TAKEN = define(
    "site.mqtt_interface_taken",
    en="mqttInterface: {interface!r} already belongs to {site!r}",
    de="mqttInterface: {interface!r} gehört bereits zu {site!r}",
)
MQTT_INTERFACE_INVALID = define(
    "site.mqtt_interface_invalid",
    en="mqttInterface: {interface!r} must be one MQTT topic level of 1 to 100 characters, "
    "without '/', '+' or '#' and without spaces at either end",
    de="mqttInterface: {interface!r} muss eine MQTT-Topic-Ebene mit 1 bis 100 Zeichen sein, "
    "ohne '/', '+' oder '#' und ohne Leerzeichen am Anfang oder Ende",
)
SHIFT_ID_INVALID = define(
    "shift.id_invalid",
    en="{where}.id: must be a non-empty text other than 'all'",
    de="{where}.id: muss ein nicht leerer Text außer 'all' sein",
)
SHIFT_ID_DUPLICATE = define(
    "shift.id_duplicate",
    en="{where}.id: duplicate shift id {shift!r}",
    de="{where}.id: Schicht-ID {shift!r} kommt doppelt vor",
)
SHIFT_TIME_INVALID = define(
    "shift.time_invalid",
    en="{where}.{bound}: must be a time HH:MM",
    de="{where}.{bound}: muss eine Uhrzeit HH:MM sein",
)
SHIFT_WEEKDAYS_INVALID = define(
    "shift.weekdays_invalid",
    en="{where}.weekdays: must list one or more days, each once, 0 (Monday) to 6",
    de="{where}.weekdays: muss einen oder mehrere Tage je einmal nennen, 0 (Montag) bis 6",
)
INVALID_EMAIL = define(
    "user.invalid_email",
    en="email: {email!r} is not a valid email address",
    de="email: {email!r} ist keine gültige E-Mail-Adresse",
)
EMAIL_TAKEN = define(
    "user.email_taken",
    en="email: a user with email {email!r} already exists",
    de="email: ein Benutzer mit der E-Mail-Adresse {email!r} existiert bereits",
)
UNKNOWN_ROLE = define(
    "user.unknown_role",
    en="role: unknown role {role!r} (one of {choices})",
    de="role: unbekannte Rolle {role!r} (eine von {choices})",
)
UNKNOWN_LANGUAGE = define(
    "user.unknown_language",
    en="language: unknown language {language!r} (one of en, de)",
    de="language: unbekannte Sprache {language!r} (eine von en, de)",
)
PASSWORD_TOO_SHORT = define(
    "user.password_too_short",
    en="{field}: must have at least {min_length} characters",
    de="{field}: muss mindestens {min_length} Zeichen haben",
)
PASSWORD_NOT_CURRENT = define(
    "user.password_not_current",
    en="currentPassword: this is not your current password",
    de="currentPassword: das ist nicht Ihr aktuelles Passwort",
)
PASSWORD_UNCHANGED = define(
    "user.password_unchanged",
    en="newPassword: must differ from the current password",
    de="newPassword: muss sich vom aktuellen Passwort unterscheiden",
)
TOO_MANY_PASSWORD_ATTEMPTS = define(
    "user.too_many_password_attempts",
    en="currentPassword: too many wrong attempts; try again in {seconds} seconds",
    de="currentPassword: zu viele falsche Versuche; bitte in {seconds} Sekunden erneut versuchen",
)
ORGANIZATION_REQUIRED = define(
    "user.organization_required",
    en="organization: a {role} user needs an organization",
    de="organization: ein Benutzer mit der Rolle {role} braucht eine Organisation",
)
ORGANIZATION_NOT_ALLOWED = define(
    "user.organization_not_allowed",
    en="organization: a {role} user sees every organization and belongs to none",
    de="organization: ein Benutzer mit der Rolle {role} sieht jede Organisation "
    "und gehört zu keiner",
)
USER_NOT_FOUND = define(
    "user.not_found", en="user {email!r} not found", de="Benutzer {email!r} nicht gefunden"
)
USER_NOT_PARTNER = define(
    "user.not_partner",
    en="user {email!r} is a {role}, not a partner",
    de="Benutzer {email!r} hat die Rolle {role}, nicht partner",
)
USER_NOT_LINKED = define(
    "user.not_linked",
    en="user {email!r} is not linked to {organization!r}",
    de="Benutzer {email!r} ist nicht mit {organization!r} verknüpft",
)

# --- Saved settings --------------------------------------------------------------------------

SAVED_PERIOD_REVERSED = define(
    "settings.period_reversed",
    en="dateSelector: from ({first}) is after to ({last})",
    de="dateSelector: from ({first}) liegt nach to ({last})",
)
SAVED_PERIOD_TOO_LONG = define(
    "settings.period_too_long",
    en="dateSelector: the period has {days} days; at most {limit} are allowed",
    de="dateSelector: der Zeitraum hat {days} Tage; höchstens {limit} sind erlaubt",
)
SAVED_SHIFT_UNKNOWN = define(
    "settings.shift_unknown",
    en="dateSelector.workflowShift: unknown shift {shift!r}",
    de="dateSelector.workflowShift: unbekannte Schicht {shift!r}",
)
SAVED_VEHICLE_UNKNOWN = define(
    "settings.vehicle_unknown",
    en="selectedMachines: unknown vehicle id {vehicle}",
    de="selectedMachines: unbekannte Fahrzeug-ID {vehicle}",
)
TOO_MANY_WIDGETS = define(
    "settings.too_many_widgets",
    en="widgets: at most {limit} widgets, got {count}",
    de="widgets: höchstens {limit} Widgets erlaubt, erhalten {count}",
)
DUPLICATE_WIDGET = define(
    "settings.duplicate_widget",
    en="widgets: duplicate widget id {widget!r}",
    de="widgets: Widget-ID {widget!r} kommt doppelt vor",
)
WIDGET_TOO_DEEP = define(
    "settings.widget_too_deep",
    en="widgets: widget {widget!r} nests its fields deeper than {limit} levels",
    de="widgets: Widget {widget!r} verschachtelt seine Angaben tiefer als {limit} Ebenen",
)
LAYOUT_TOO_LARGE = define(
    "settings.layout_too_large",
    en="widgets: the layout is larger than {limit} bytes",
    de="widgets: das Layout ist größer als {limit} Bytes",
)

# --- Analytics parameters --------------------------------------------------------------------

VEHICLE_NOT_FOUND = define(
    "vehicle.not_found", en="vehicle {vehicle} not found", de="Fahrzeug {vehicle} nicht gefunden"
)
NOT_A_VEHICLE_ID = define(
    "analytics.not_a_vehicle_id",
    en="vehicles: {token!r} is not a vehicle id",
    de="vehicles: {token!r} ist keine Fahrzeug-ID",
)
TOO_MANY_VEHICLES = define(
    "analytics.too_many_vehicles",
    en="vehicles: at most {limit} ids, got {count}",
    de="vehicles: höchstens {limit} IDs erlaubt, erhalten {count}",
)
QUERY_PARAMETER_REPEATED = define(
    "analytics.query_parameter_repeated",
    en="{name}: given {count} times, expected once",
    de="{name}: {count}-mal angegeben, erwartet einmal",
)
MAP_CELL_INCOMPLETE = define(
    "analytics.map_cell_incomplete",
    en="mapId, cell and grid go together: {missing} missing",
    de="mapId, cell und grid gehören zusammen: {missing} fehlt",
)
MAP_GRID_INVALID = define(
    "analytics.map_grid_invalid",
    en="grid: expected originX,originY,cellSize,columns,rows (finite numbers, a positive cell "
    "size, 1 to {limit} columns and rows), got {value!r}",
    de="grid: erwartet originX,originY,cellSize,columns,rows (endliche Zahlen, eine positive "
    "Zellgröße, 1 bis {limit} Spalten und Zeilen), erhalten {value!r}",
)
MAP_CELL_INVALID = define(
    "analytics.map_cell_invalid",
    en="cell: expected column,row of the grid's {columns} x {rows} cells, got {value!r}",
    de="cell: erwartet Spalte,Zeile der {columns} x {rows} Zellen des Rasters, erhalten {value!r}",
)
FILTER_RANGE_REVERSED = define(
    "admin.filter_range_reversed",
    en="{last_field}: {last} is before {first_field} ({first})",
    de="{last_field}: {last} liegt vor {first_field} ({first})",
)
PERIOD_REVERSED = define(
    "analytics.period_reversed",
    en="from: {first} is after to ({last})",
    de="from: {first} liegt nach to ({last})",
)
DAY_OUT_OF_RANGE = define(
    "analytics.day_out_of_range",
    en="{field}: {day} is outside the days an analysis can cover ({earliest} to {latest})",
    de="{field}: {day} liegt außerhalb der Tage, die eine Auswertung abdecken kann "
    "({earliest} bis {latest})",
)
PERIOD_TOO_LONG = define(
    "analytics.period_too_long",
    en="to: the period has {days} days; at most {limit} are allowed",
    de="to: der Zeitraum hat {days} Tage; höchstens {limit} sind erlaubt",
)
PERIOD_KINDS_MIXED = define(
    "analytics.period_kinds_mixed",
    en="{field}: a period is either days (from, to) or instants (since, until, or hours); "
    "{field} cannot be combined with {other}",
    de="{field}: ein Zeitraum besteht entweder aus Tagen (from, to) oder aus Zeitpunkten "
    "(since, until oder hours); {field} lässt sich nicht mit {other} kombinieren",
)
HOURS_WITH_INSTANTS = define(
    "analytics.hours_with_instants",
    en="hours: the last hours up to now cannot be combined with {other}",
    de="hours: die letzten Stunden bis jetzt lassen sich nicht mit {other} kombinieren",
)
UNTIL_WITHOUT_SINCE = define(
    "analytics.until_without_since",
    en="until: needs since, the start of the period",
    de="until: braucht since, den Beginn des Zeitraums",
)
INSTANTS_REVERSED = define(
    "analytics.instants_reversed",
    en="until: {until} is not after since ({since})",
    de="until: {until} liegt nicht nach since ({since})",
)
SINCE_AFTER_NOW = define(
    "analytics.since_after_now",
    en="since: {since} is not before now (without until, the period ends now)",
    de="since: {since} liegt nicht vor jetzt (ohne until endet der Zeitraum jetzt)",
)
INSTANT_OUT_OF_RANGE = define(
    "analytics.instant_out_of_range",
    en="{field}: {instant} is outside the instants an analysis can cover ({earliest} to {latest})",
    de="{field}: {instant} liegt außerhalb der Zeitpunkte, die eine Auswertung abdecken kann "
    "({earliest} bis {latest})",
)
INSTANTS_TOO_LONG = define(
    "analytics.instants_too_long",
    en="{field}: the period lasts {hours} hours; at most {limit} are allowed",
    de="{field}: der Zeitraum dauert {hours} Stunden; höchstens {limit} sind erlaubt",
)
SHIFT_UNKNOWN = define(
    "analytics.shift_unknown",
    en="shift: unknown shift {shift!r} (use a shift id of the vehicles' sites or {all_shifts!r})",
    de="shift: unbekannte Schicht {shift!r} (eine Schicht-ID der Standorte der Fahrzeuge "
    "oder {all_shifts!r} angeben)",
)
SORT_COLUMN_UNKNOWN = define(
    "analytics.sort_column_unknown",
    en="sort: unknown column {column!r} (allowed: {allowed})",
    de="sort: unbekannte Spalte {column!r} (erlaubt: {allowed})",
)
WORKFLOW_NOT_FOUND = define(
    "analytics.workflow_not_found",
    en="workflow {value!r} not found",
    de="Workflow {value!r} nicht gefunden",
)
ACTION_TYPE_NOT_FOUND = define(
    "analytics.action_type_not_found",
    en="action type {value!r} not found",
    de="Aktionstyp {value!r} nicht gefunden",
)
NAMED_NOT_FOUND = {"workflow": WORKFLOW_NOT_FOUND, "actionType": ACTION_TYPE_NOT_FOUND}
"""The 404 of a drill-down by the query parameter that named the missing thing."""
