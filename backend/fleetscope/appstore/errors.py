"""Failures of the store's logic: 4xx envelopes in the API, exit code 1 in the CLI."""


class StoreError(Exception):
    """Base class: the message names the field or object and the problem."""

    status_code = 400

    def __init__(self, msg: str) -> None:
        super().__init__(msg)
        self.msg = msg


class NotFoundError(StoreError):
    status_code = 404


class ConflictError(StoreError):
    status_code = 409


class InvalidInputError(StoreError):
    status_code = 422


class PermissionDeniedError(StoreError):
    status_code = 403
