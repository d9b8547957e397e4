"""Rule files composed and compiled into an edition the engine can play."""
