"""Ray AIR's Checkpoint: Tunedeck's (a folder; from_dict/to_dict, from_directory, as_directory)."""
from tunedeck import Checkpoint  # noqa: F401
