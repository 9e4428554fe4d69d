"""Reading dice from camera images: pure functions over numpy arrays, no camera code."""

from vision.measure.annotate import annotate
from vision.network import VisionModelError
from vision.params import DEFAULT_PARAMS, ReaderParams, VisionInputError
from vision.reader import read_dice
from vision.reading import DiceReading, Die
from vision.settle import ReadingConfirmer, SettleDetector, SettleParams

__all__ = [
    "DEFAULT_PARAMS",
    "DiceReading",
    "Die",
    "ReaderParams",
    "ReadingConfirmer",
    "SettleDetector",
    "SettleParams",
    "VisionInputError",
    "VisionModelError",
    "annotate",
    "read_dice",
]
