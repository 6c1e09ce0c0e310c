"""Shared analytics core: periods and shift windows, scope and params, rollup reads, paging."""
