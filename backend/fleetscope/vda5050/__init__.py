"""VDA 5050: decoding every protocol version into one normalized message model."""
