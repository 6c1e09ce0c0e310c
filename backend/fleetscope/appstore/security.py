"""Password hashing (Argon2id) and random tokens; only SHA-256 digests of tokens are stored."""

import hashlib
import secrets

from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError, VerifyMismatchError

_hasher = PasswordHasher()
# Verified against when the email is unknown, so a miss costs as much time as a wrong password.
_dummy_hash: str | None = None


def use_password_hasher(hasher: PasswordHasher) -> None:
    """Swap the hashing parameters (tests use argon2's cheapest profile to stay fast)."""
    global _hasher, _dummy_hash
    _hasher = hasher
    _dummy_hash = None


def _dummy() -> str:
    global _dummy_hash
    if _dummy_hash is None:
        _dummy_hash = _hasher.hash(secrets.token_urlsafe(16))
    return _dummy_hash


def hash_password(password: str) -> str:
    return _hasher.hash(password)


def verify_password(*, password: str, password_hash: str | None) -> bool:
    try:
        return _hasher.verify(password_hash or _dummy(), password) and password_hash is not None
    except (VerifyMismatchError, VerificationError, InvalidHashError):
        return False


def password_needs_rehash(password_hash: str) -> bool:
    try:
        return _hasher.check_needs_rehash(password_hash)
    except InvalidHashError:
        return True


def new_token() -> str:
    return secrets.token_urlsafe(32)


def token_digest(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def tokens_equal(left: str, right: str) -> bool:
    return secrets.compare_digest(left.encode(), right.encode())
