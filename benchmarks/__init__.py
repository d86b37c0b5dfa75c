"""Benchmarks that print figures (JSON); run from the project folder, not installed.

- ``python -m benchmarks.engine``: successors per second, games per second, bytes per state.
- ``python -m benchmarks.envs``: Gymnasium and PettingZoo steps per second.
- ``python -m benchmarks.batch``: speed-up of 2 workers over 1, memory over many games.
- ``python -m benchmarks.export``: frame drawing and GIF/MP4 export time and memory.
"""
