"""Failures of the store's logic: 4xx envelopes in the API, exit code 1 in the CLI."""

from fleetscope.i18n import Text


class StoreError(Exception):
    """Base class: the message names the field or object and the problem.

    ``message`` is rendered in the language of the request by the API; ``msg`` (and
    ``str(error)``) is the English text for the CLI and logs.
    """

    status_code = 400

    def __init__(self, message: Text) -> None:
        super().__init__(str(message))
        self.message = message
        self.msg = str(message)


class NotFoundError(StoreError):
    status_code = 404


class ConflictError(StoreError):
    status_code = 409


class InvalidInputError(StoreError):
    status_code = 422
