"""Every 503 tells the caller when to ask again (product.md section 6)."""

from starlette.requests import Request

from fleetscope.api.errors import DEFAULT_RETRY_AFTER_S, error_response
from fleetscope.i18n.messages import FACT_STORE_NOT_OPEN, VEHICLE_NOT_FOUND


def _request() -> Request:
    return Request({"type": "http", "method": "GET", "path": "/", "headers": []})


def test_a_503_without_a_wait_of_its_own_asks_for_the_default_one() -> None:
    response = error_response(_request(), FACT_STORE_NOT_OPEN(), status_code=503)
    assert response.headers["Retry-After"] == str(DEFAULT_RETRY_AFTER_S)


def test_a_named_wait_is_kept_and_other_failures_name_none() -> None:
    busy = error_response(
        _request(), FACT_STORE_NOT_OPEN(), status_code=503, headers={"Retry-After": "1"}
    )
    assert busy.headers["Retry-After"] == "1"
    missing = error_response(_request(), VEHICLE_NOT_FOUND(vehicle=7), status_code=404)
    assert "Retry-After" not in missing.headers
