"""Battery page area: charge series, charging sessions and battery units."""
