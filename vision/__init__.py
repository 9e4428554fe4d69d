"""Reading dice from camera images: pure functions over numpy arrays, no camera code."""

from vision.measure.annotate import annotate
from vision.read.network import VisionModelError
from vision.read.params import DEFAULT_PARAMS, ReaderParams, VisionInputError
from vision.read.reader import read_dice
from vision.read.reading import DiceReading, Die
from vision.read.settle import ReadingConfirmer, SettleDetector, SettleParams

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
