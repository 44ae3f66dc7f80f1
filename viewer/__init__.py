"""The Textual replay viewer for AFN games (uses the public API of allfours_notation)."""
