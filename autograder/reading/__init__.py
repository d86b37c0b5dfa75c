"""Reading case files: TOML tree and game cases, and classic ``.test`` files.

Readers turn files into values (`autograder.reading.tree_cases.TreeCase`, ...) and report
a malformed file as a `autograder.results.CaseFormatError` naming the place. They grade
nothing and run no search.
"""
