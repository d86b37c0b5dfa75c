from __future__ import annotations

import os

# Every env test is headless: pygame (when a render mode needs it) uses no display.
os.environ["SDL_VIDEODRIVER"] = "dummy"
os.environ["SDL_AUDIODRIVER"] = "dummy"
