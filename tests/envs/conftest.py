from __future__ import annotations

import os

# Every env test is headless: pygame (when a render mode needs it) uses no display.
os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
