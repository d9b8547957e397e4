"""lsp: see docs/engine.md for the map of the packages."""
