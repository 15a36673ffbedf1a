"""The page's process: the session the test run holds, and the worker that runs the blocks."""
