"""A server process that only ingests, for the kill -9 test: the server's real ingestion
service (fact store, ingest worker, MQTT subscriber) on the settings of the environment
(``FLEETSCOPE_*``), without the web API around it.

Prints ``subscribed <client id>`` once the broker confirmed the subscriptions, then
``stored <dedup keys> received <messages>`` every 100 ms; stops gracefully on SIGTERM.
"""

import logging
import signal
import sys
import threading

from fleetscope.appstore.db import engine_for, make_session_factory
from fleetscope.ingest.service import start_ingestion
from fleetscope.settings import Settings


def main() -> int:
    logging.basicConfig(level=logging.INFO, stream=sys.stderr)
    settings = Settings()
    engine = engine_for(settings)
    stopping = threading.Event()
    signal.signal(signal.SIGTERM, lambda *_: stopping.set())
    handle = start_ingestion(settings, session_factory=make_session_factory(engine))
    try:
        subscriber = handle.mqtt
        if subscriber is None or not subscriber.subscribed.wait(15):
            return 2
        print("subscribed", subscriber.client_id, flush=True)
        while not stopping.wait(0.1):
            stored = handle.store.table_counts()["raw_keys"]
            print("stored", stored, "received", subscriber.received, flush=True)
    finally:
        handle.stop()
        engine.dispose()
    return 0


if __name__ == "__main__":
    sys.exit(main())
