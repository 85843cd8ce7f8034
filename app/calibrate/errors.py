"""The error a user can fix: printed as one line, never as a traceback."""


class UserError(Exception):
    """A problem with the command line, the inputs or this machine that the message tells how to fix."""


class MeasurementError(Exception):
    """A measurement that failed on this machine (a worker process died, a collective library failed)."""
