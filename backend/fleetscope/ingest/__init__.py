"""Paths in: MQTT subscriber, HTTP batches, file import and the pipeline behind them."""
