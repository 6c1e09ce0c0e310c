"""The response envelope of product.md section 5: ``{"status", "msg", "data"}``."""

from typing import Any, Generic, TypeVar

from pydantic import BaseModel

T = TypeVar("T")


class Envelope(BaseModel, Generic[T]):
    status: bool = True
    msg: str | None = None
    data: T


def ok(data: T, msg: str | None = None) -> Envelope[T]:
    return Envelope[T](status=True, msg=msg, data=data)


def failure_body(msg: str, data: Any = None) -> dict[str, Any]:
    return {"status": False, "msg": msg, "data": data}
