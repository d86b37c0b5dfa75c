"""Rendering: reads core state, never the reverse.

``text`` (the ``-t`` display and ``ansi`` mode), ``frame`` (`FrameRenderer`, the one
pygame drawing path), ``window`` (`PygameWindow`), ``keyboard`` (`KeyboardAgent`) and
``export`` (GIF, MP4, PNG). Nothing is imported here, so importing the package never
pulls in pygame.
"""
