"""Messages of the Administration API (organizations, sites, shifts, workflow rules,
vehicles, users), in English and German; the conventions of ``messages`` apply."""

from fleetscope.i18n.text import define

WEEKDAYS = tuple(
    define(f"weekday.{index}", en=en, de=de)
    for index, (en, de) in enumerate(
        (
            ("Monday", "Montag"),
            ("Tuesday", "Dienstag"),
            ("Wednesday", "Mittwoch"),
            ("Thursday", "Donnerstag"),
            ("Friday", "Freitag"),
            ("Saturday", "Samstag"),
            ("Sunday", "Sonntag"),
        )
    )
)

# A new site's shifts are named in its creator's language (names are data, renamed at will).
DEFAULT_SHIFT_NAMES = {
    shift_id: define(f"shift.default.{shift_id}", en=en, de=de)
    for shift_id, en, de in (
        ("early", "Early", "Früh"),
        ("late", "Late", "Spät"),
        ("night", "Night", "Nacht"),
    )
}

# --- Organizations and partner links ---------------------------------------------------------

ORGANIZATION_ID_NOT_FOUND = define(
    "admin.organization_not_found",
    en="organization {organization} not found",
    de="Organisation {organization} nicht gefunden",
)
ORGANIZATION_ID_UNKNOWN = define(
    "admin.organization_unknown",
    en="{field}: organization {organization} does not exist",
    de="{field}: Organisation {organization} existiert nicht",
)
ORGANIZATION_NOT_EMPTY = define(
    "admin.organization_not_empty",
    en="organization {name!r} still has sites ({sites}) and users ({users}); move or delete "
    "them first",
    de="Organisation {name!r} hat noch Standorte ({sites}) und Benutzer ({users}); diese zuerst "
    "verschieben oder löschen",
)
PARTNER_LINKS_NOT_PARTNER = define(
    "admin.partner_links_not_partner",
    en="organizationIds: user {email!r} is a {role}; only partner users have linked organizations",
    de="organizationIds: Benutzer {email!r} hat die Rolle {role}; nur Benutzer mit der Rolle "
    "partner haben verknüpfte Organisationen",
)

# --- Sites, shifts, workflow rules -------------------------------------------------------------

SITE_ORGANIZATION_UNKNOWN = define(
    "admin.site_organization_unknown",
    en="organizationId: organization {organization} does not exist",
    de="organizationId: Organisation {organization} existiert nicht",
)
SHIFT_NAME_EMPTY = define(
    "admin.shift_name_empty",
    en="{where}.name: must not be empty",
    de="{where}.name: darf nicht leer sein",
)
SHIFT_EMPTY = define(
    "admin.shift_empty",
    en="{where}.end: must differ from start (a shift of 0 hours)",
    de="{where}.end: muss sich von start unterscheiden (eine Schicht von 0 Stunden)",
)
SHIFTS_OVERLAP = define(
    "admin.shifts_overlap",
    en="shifts: {first!r} and {second!r} overlap on {weekday}",
    de="shifts: {first!r} und {second!r} überschneiden sich am {weekday}",
)
SHIFT_NAME_DUPLICATE = define(
    "admin.shift_name_duplicate",
    en="{where}.name: another shift is already called {name!r}",
    de="{where}.name: eine andere Schicht heißt bereits {name!r}",
)
# Python's reason ("missing ), unterminated subpattern") exists in English only: both
# languages name the position, which ``re.error`` gives.
WORKFLOW_RULE_INVALID = define(
    "admin.workflow_rule_invalid",
    en="workflowRules[{index}]: not a valid regular expression (error at position {position})",
    de="workflowRules[{index}]: kein gültiger regulärer Ausdruck (Fehler an Position {position})",
)
WORKFLOW_RULE_INVALID_SOMEWHERE = define(
    "admin.workflow_rule_invalid_somewhere",
    en="workflowRules[{index}]: not a valid regular expression",
    de="workflowRules[{index}]: kein gültiger regulärer Ausdruck",
)
WORKFLOW_RULE_UNSUPPORTED = define(
    "admin.workflow_rule_unsupported",
    en=(
        "workflowRules[{index}]: not supported ('{fragment}'): rules use RE2 syntax, which runs"
        " in linear time and has no lookarounds or backreferences"
    ),
    de=(
        "workflowRules[{index}]: nicht unterstützt ('{fragment}'): Regeln verwenden RE2-Syntax,"
        " die in linearer Zeit läuft und keine Lookarounds oder Rückverweise kennt"
    ),
)
WORKFLOW_RULE_NO_GROUP = define(
    "admin.workflow_rule_no_group",
    en="workflowRules[{index}]: has no named group (?P<workflow>...)",
    de="workflowRules[{index}]: hat keine benannte Gruppe (?P<workflow>...)",
)
WORKFLOW_RULE_EMPTY = define(
    "admin.workflow_rule_empty",
    en="workflowRules[{index}]: must not be empty",
    de="workflowRules[{index}]: darf nicht leer sein",
)

# --- Vehicles ------------------------------------------------------------------------------------

VEHICLE_SITE_FOREIGN = define(
    "admin.vehicle_site_foreign",
    en="siteId: site {site} is not a site of the vehicle's organization",
    de="siteId: Standort {site} ist kein Standort der Organisation des Fahrzeugs",
)
VEHICLE_EXISTS_AT_SITE = define(
    "admin.vehicle_exists_at_site",
    en="siteId: site {site!r} already has a vehicle {manufacturer}/{serial}",
    de="siteId: Standort {site!r} hat bereits ein Fahrzeug {manufacturer}/{serial}",
)

VEHICLE_NAME_TAKEN = define(
    "admin.vehicle_name_taken",
    en="{field}: another vehicle of site {site!r} is already called {name!r}",
    de="{field}: ein anderes Fahrzeug des Standorts {site!r} heißt bereits {name!r}",
)

# --- Users ---------------------------------------------------------------------------------------

USER_ID_NOT_FOUND = define(
    "admin.user_not_found", en="user {user} not found", de="Benutzer {user} nicht gefunden"
)
CANNOT_DEACTIVATE_SELF = define(
    "admin.cannot_deactivate_self",
    en="isActive: you cannot deactivate your own account",
    de="isActive: das eigene Konto kann nicht deaktiviert werden",
)
CANNOT_DELETE_SELF = define(
    "admin.cannot_delete_self",
    en="you cannot delete your own account",
    de="das eigene Konto kann nicht gelöscht werden",
)
SITE_HAS_VEHICLES = define(
    "admin.site_has_vehicles",
    en="site {site!r} still has vehicles ({count}); move them to another site first",
    de="Standort {site!r} hat noch Fahrzeuge ({count}); diese zuerst an einen anderen Standort "
    "verschieben",
)
CANNOT_DEMOTE_SELF = define(
    "admin.cannot_demote_self",
    en="role: you cannot take the superuser role from your own account",
    de="role: dem eigenen Konto kann die Rolle superuser nicht entzogen werden",
)
LOAD_ACTION_TYPE_TOO_LONG = define(
    "admin.load_action_type_too_long",
    en="loadActionTypes[{index}]: action type {name!r}... is longer than {limit} characters",
    de="loadActionTypes[{index}]: Aktionstyp {name!r}... ist länger als {limit} Zeichen",
)
TOO_MANY_LOAD_ACTION_TYPES = define(
    "admin.too_many_load_action_types",
    en="loadActionTypes: more than {limit} action types",
    de="loadActionTypes: mehr als {limit} Aktionstypen",
)
TOO_MANY_WORKFLOW_RULES = define(
    "admin.too_many_workflow_rules",
    en="workflowRules: more than {limit} rules",
    de="workflowRules: mehr als {limit} Regeln",
)
WORKFLOW_RULE_TOO_LONG = define(
    "admin.workflow_rule_too_long",
    en="workflowRules[{index}]: longer than {limit} characters",
    de="workflowRules[{index}]: länger als {limit} Zeichen",
)
PARTNER_LINKS_CHANGED_MEANWHILE = define(
    "admin.partner_links_changed_meanwhile",
    en="the organizations of {email} were changed by someone else meanwhile: reload them and "
    "make your change again",
    de="die Organisationen von {email} wurden inzwischen von jemand anderem geändert: bitte neu "
    "laden und die Änderung noch einmal vornehmen",
)
SITE_CHANGED_MEANWHILE = define(
    "admin.site_changed_meanwhile",
    en="{site} was changed by someone else meanwhile: reload it and make your change again",
    de="{site} wurde inzwischen von jemand anderem geändert: bitte neu laden und die Änderung "
    "noch einmal vornehmen",
)
