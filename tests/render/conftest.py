from __future__ import annotations

import os

# Rendering tests never need a display: every Surface is off-screen, and the window
# tests that do open one use SDL's dummy driver (or Xvfb, where it is installed).
os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
