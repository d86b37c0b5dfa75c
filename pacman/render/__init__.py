"""Rendering: text now, the pygame frame and window on top; reads core state, never the reverse."""
