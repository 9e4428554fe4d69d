"""Every tuned number of the dice reader, in one frozen dataclass, and the reader's input error.

Units used below:
  px      pixels of the *working* image (the input, shrunk so its longest side is at most
          ``max_working_side_px``; for inputs up to that size these are input pixels)
  det px  pixels of the image a detector pass sees (the working image shrunk by that pass's factor)
  die     multiples of a die's size (the longer side of its axis-aligned bounding box)
  -       plain ratio, count or probability (0..1)
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from pathlib import Path

MODELS = Path(__file__).resolve().parents[1] / "models"  # vision/models/


class VisionInputError(ValueError):
    """The image handed to the reader is not something it can read (wrong type, dtype or shape)."""


@dataclass(frozen=True)
class ReaderParams:
    """Sizes, thresholds and model files of the dice reader; see the module docstring for the units."""

    # --- input ---
    max_working_side_px: int = 1280  # px of the input: bigger images are shrunk to this longest side first

    # --- detector: a small fully convolutional net marks die centres and sizes ---
    detector_model: Path = MODELS / "dice-detector.onnx"
    # A camera that leans (told a far side, ``up``) sees each die's side faces below its top one, the
    # near dice bigger than the far ones, and their shadows long: it is read by a detector fine-tuned
    # for that on path-traced throws seen 0-40 degrees from straight down (vision/models/README.md).
    # It is not used straight down, where it finds fewer of the real photos' dice. It reads the
    # picture turned so its far side is at the top, and mirrored left to right too, the two centre
    # logits averaged (``detect.far_side_up``): trained so, it learns that a die's top face lies
    # above its side face (the renders for choosing at 20-40 degrees: per die 84.7 -> 87.5 %, at
    # the table 72.0 -> 76.0 % right, silent 1.3 % both; vision/models/README.md). It has since been
    # fine-tuned on more renders (1,500 to 3,000), six runs averaged (the oblique renders 91.8 -> 93.5 %
    # per die).
    leaning_detector_model: Path = MODELS / "dice-detector-leaning.onnx"
    detector_stride: int = 4  # det px per cell of the detector's output maps
    detector_multiple: int = 16  # det px: a pass's input is padded to a multiple of this
    # Two passes cover dice from about 16 to 800 px: the fine pass sees the working image shrunk
    # by ``fine_shrink`` and keeps dice up to ``fine_max_side_px``; the coarse pass sees it shrunk
    # by ``coarse_shrink`` and keeps dice from ``coarse_min_side_px``. The ranges overlap, since a
    # pass misjudges sizes near its limits; the classifier then picks. The detector was trained on
    # dice of 7 to 100 det px. A coarse pass at 4 or 6 finds the grey camera's close-up dice of
    # 200-270 px that this one misses, and reads the choosing trays better (crowd 139 -> 143 exact),
    # but takes two more choosing photos silently wrong (4.2 -> 5.9 % at the table): kept at 8, and
    # used only to look again at a throw read short (``closer_looks``, below). Those closer
    # looks keep these size limits, in px: a fine pass at 1 then sees dice of 100-200 px beyond
    # the detector's training, and the coarse pass, which keeps them, covers them.
    fine_shrink: int = 2  # -
    coarse_shrink: int = 8  # -
    fine_max_side_px: float = 200.0  # px
    coarse_min_side_px: float = 120.0  # px
    detection_threshold: float = 0.15  # -: lowest centre-heatmap peak that is a die candidate (the classifier rejects the false ones)
    duplicate_distance: float = 0.5  # die: candidates whose centres are closer than this are one die
    # A candidate of another size than the dice found (by more than this factor either way), lying on
    # none of them, is looked at again at their size (a die pressed among others taken for a pip).
    typical_size_ratio: float = 1.4  # -
    typical_size_min_presence: float = 0.9  # -: and kept only when the classifier is at least this sure it is a die there
    # Such a candidate within ``typical_size_near`` of a die found is also looked at shifted by
    # ``typical_size_shift`` each of eight ways: a pip lies off its die's centre (0.3-0.4 of a die
    # on crowded synthetic trays). Chosen on 200 trays of each scene drawn for choosing alone
    # (bench-vision's seeds + 100): crowd 92 -> 121 and touching 157 -> 176 of 200 exact, every
    # other scene and every photo read as before; 0.25 or 0.35, or 2.2 near, no better. A doubtful
    # candidate near a die found is looked at shifted the same way, at the dice's size, and the
    # likeliest look replaces it where it is ``typical_size_min_presence`` sure: crowd 121 -> 139,
    # touching 176 -> 182 there; of 425 choosing and held-out photos 4 read one die more, 3 of them right.
    typical_size_near: float = 1.6  # die (of the typical size)
    typical_size_shift: float = 0.3  # die (of the typical size)
    # A die found bigger than the dice's typical size by more than ``merged_size_ratio``, its face
    # unsure and another die near it, may be two dice pressed together taken for one (on the
    # oblique renders 25 of the 76 dice lost were). It is looked at at the typical size shifted by
    # ``merged_shift`` each of eight ways, and up to two looks where the classifier is sure of a die
    # (``typical_size_min_presence``) and of its face replace it. Chosen on the 120 throws rendered
    # for choosing alone (at the table 66.7 -> 68.3 % right, silent 0.8 % both; ratio 1.0 / 1.15
    # and shift 0.3 / 0.35 gained less there, and 1.0 took a choosing photo silently wrong); every
    # straight-down choosing photo and synthetic tray of bench-vision's kinds read as before.
    merged_size_ratio: float = 1.25  # -
    merged_shift: float = 0.4  # die (of the typical size)

    # --- classifier: a small net reads the top face from a crop around each candidate ---
    classifier_model: Path = MODELS / "dice-classifier.onnx"
    # A camera told a far side reads its crops with a classifier of its own, fine-tuned from the
    # straight-down one mostly on path-traced throws' crops in the far-side frame, then on the crops
    # the leaning reader cuts on desks and on the renders (L1, K1, CD in vision/models/README.md),
    # then made twice as wide and fine-tuned on (WC3: ``finetune --widen 2``; it read the crops it
    # trained on no better than unseen ones, and the wider net reads the oblique renders 90.1 ->
    # 91.8 % per die), and takes a face only at its own threshold (below).
    leaning_classifier_model: Path = MODELS / "dice-classifier-leaning.onnx"
    # A die found straight down with no other die within ``typical_size_near`` times the bigger one's
    # size, and less than ``lone_die_below`` sure, is judged again by a second classifier, fine-tuned
    # from the first on the candidates the reader finds in noise pictures and cluttered trays drawn
    # for training (G1 in vision/models/README.md); it is as likely a die as the less sure of the two
    # says. Alone, that net reads real photos worse; as a second judge of lone dice it reads every
    # held-out and choosing photo as before, and on bench-vision's trays drawn for choosing
    # garbage 11 -> 1 and clutter 5 -> 4 dice invented. Every lone die judged again gives the same
    # figures: 0.98 spares the second look for the sure ones (576 -> 68 looks on 1,000 choosing trays).
    lone_die_classifier_model: Path = MODELS / "dice-classifier-lone.onnx"
    lone_die_below: float = 0.98  # -
    # Seen straight down, the dice of one throw are of one size in the picture; a die whose box is
    # smaller than ``small_box_ratio`` of the throw's typical die (the median of those read surely)
    # was boxed too tightly (its crop cuts its edges and pips, where the classifier learned whole
    # dice: the detector's boxes of dice kept unsure were 0.7-0.8 of the labelled size), so its face
    # is read again at the typical size, where it lies. Chosen on the training photos (the dev
    # photos' training half and train-photos' train split, 924 photos, the choosing eighth among
    # them), at the table right / silent: off 660/23, 0.8 665/21, 0.85 664/23, 0.9 666/22, 0.95
    # 669/20, 1.0 670/21 (0.95 with the candidates held doubtful for another size left doubtful,
    # below: 668/19); the choosing photos alone 84/5 before, 85/4 at every ratio from 0.8 to 1.0. A
    # look the classifier finds no die (``max_not_die_probability``) is not taken: choosing 85 -> 86
    # right, the 924 photos 19 -> 20 silent (with the third closer look, below: 669/20). Only the
    # unsure dice read again (at 0.9), the choosing photos 85/5 (every die: 85/4).
    small_box_ratio: float = 0.95  # -
    # A leaning camera sees the nearer dice bigger, so there a die whose face is unsure is read
    # again at the median size of its ``leaning_size_neighbours`` nearest dice read surely. Chosen on
    # the 120 leaning renders for choosing (``render3d --count 120 --seed 31 --tilt 10 40
    # --photo-set``), at the table right / silent and per die: off 72.5/0.8, 89.9; at 0.85 72.5/0.8,
    # 90.3; 0.9 73.3/0.8, 90.6; 0.95 74.2/1.7, 91.2. The neighbours were counted with every small
    # die read again, sure or not: 5 and 0.9 73.3/0.8, 90.8 (4 the same; 3 73.3/1.7; 6 72.5/0.8; 8
    # or all 72.5/1.7); but the die nearest the far side is smaller than all its neighbours.
    leaning_small_box_ratio: float = 0.9  # -
    leaning_size_neighbours: int = 5
    trained_on: Path = MODELS / "trained-on.txt"  # digests of the photos the nets trained on
    crop_px: int = 48  # px of the crop handed to the classifier (square)
    crop_margin: float = 1.3  # die: side of the crop around a candidate
    # Where the camera's far side lies, in degrees counter-clockwise from the picture's top. Each
    # crop is turned so it is up: a camera not straight above sees a die's top face and, below it,
    # the side turned towards the camera, and the classifier learned which of the two is on top in
    # that frame. At the table the tray's outline says (``vision.read.tray.TrayOutline.far_side``);
    # a webcam leaning over a desk looks forward (0, the picture's top). None: the camera looks
    # straight down, no side is far and any turn of a crop is as right, so a die whose face is
    # unsure is read again turned by each quarter and the four readings averaged (one that leans
    # reads it again mirrored left to right, which keeps the far side at the top: ``mirror_below``).
    up: float | None = None  # degrees
    min_value_probability: float = 0.7  # -: a face less certain than this is reported unreadable
    # The same where the camera leans (``up`` told), for its own classifier: chosen on 120 held-out
    # throws (render3d --seed 31 --tilt 10 40) as the most right at the table with at most 1.5 % of
    # throws silently wrong (the target) on average over the recipe's two seeds: 0.7 gave 3.75 %.
    # With an unsure face read again mirrored (``mirror_below`` moved with it) 0.8 would be chosen so
    # (on average over the two seeds 71.3 % right, 1.25 % silent; 0.85 68.4 and 1.25; 0.75 71.7 and
    # 1.7), but it takes a third throw of the 150 oblique renders silently wrong (1.3 -> 2.0 %, past
    # the 1.5) and a fifth of 100 seen 0-10 degrees: 0.85 is kept.
    leaning_min_value_probability: float = 0.85  # -
    # ...and, where the camera looks straight down, one less certain than this is read again at each
    # quarter turn first. The reader's own threshold, moved with it; kept apart so that a reading
    # with every face kept (``eval-vision --calibration``, ``vision.training.thresholds``) turns the
    # same dice. Turning surer dice too trades throws right for fewer silently wrong, on the 118
    # choosing photos at the table: 82/5 (0.7), 79/3 (0.85 to 0.95), 78/2 (every die, and a 5-dice
    # tray 29 -> 47 ms); the face threshold lowered with it gives no more right for as few silent.
    quarter_turns_below: float = 0.7  # -
    # Where the camera leans, a face less certain than this is read again mirrored left to right
    # first (its far side stays at the top) and the two readings averaged: on the 120 throws
    # rendered for choosing 68.3 -> 70.0 % right at the table (K1), silent 0.8 % both; on bench-vision's
    # desks drawn for choosing 7 -> 4 dice invented. The averaged reading also says how likely a die
    # it is: averaging the faces alone did less (69.2 % right, 1.7 % silent, desks 7 invented). On
    # 600 touching trays drawn leaning, 3 more are read exactly and 2 fewer: a big candidate of two
    # dice pressed together, doubted once mirrored, is no die to split then. The leaning threshold,
    # kept apart as above.
    mirror_below: float = 0.85  # -
    # The classifier's face probabilities are raised to 1/face_temperature and renormalised
    # (temperature scaling), so a confidence means how often such a reading is right; fitted on
    # held-out photos by ``python -m vision.training.calibrate``.
    face_temperature: float = 1.0  # -
    # A candidate more likely than this to be no die is no die, read anywhere (at a table the count
    # known takes the likeliest candidates, these too). Chosen on the choosing photos (held out of
    # fine-tuning): the fewest dice invented on bench-vision's garbage, clutter and desk with no
    # choosing figure worse than at 0.5 (per die 90.4, exact 69.5 -> 71.2, silent 5.1 -> 4.2 %);
    # garbage 31 -> 12, clutter 12 -> 2, desk 24 -> 15 invented of 200, touching 164 -> 161 exact.
    max_not_die_probability: float = 0.3  # -
    # A die found of another size than the dice found (their median, of three or more;
    # ``typical_size_ratio`` either way), its face unsure and less than this likely a die, is held
    # doubtful: a key or a printed mark beside the dice is seldom of their size. Chosen on
    # bench-vision's trays drawn for choosing: desk 13 -> 7 dice invented, every other kind, the
    # choosing photos and the choosing renders read as before (1.0 the same; taking also sure faces
    # below 0.85 likely: desk 5, crowd 139 -> 134).
    odd_size_min_presence: float = 0.95  # -
    doubtful_presence: float = 0.05  # -: but kept aside as doubtful while at least this likely a die

    # --- a known number of dice (at the table): the N likeliest dice, or a refusal ---
    # Chosen on train-photos' valid split by the table figure (eval-vision --table): a next one below
    # 0.7 is dropped (right 81.5 -> 82.4 %, silent 1.9 % both); a lower N-th (down to 0.1) changed nothing.
    expected_min_presence: float = 0.5  # -: the N-th likeliest die must be at least this likely a die
    expected_max_extra_presence: float = 0.7  # -: and the next one less likely than this
    # A camera that leans sees each die's side face below its top one, towards the camera, and the
    # detector now and then takes it for a die of its own. Where that would refuse a throw for a die
    # more than thrown, a candidate on a likelier one's near side (between ``side_face_near`` of that
    # one's size towards the camera, within ``side_face_across`` of it across) is left out, and the
    # throw taken if that leaves as many as thrown (``reader.likeliest``). Chosen on the 120 leaning
    # renders for choosing, at the table: right 70.8 -> 72.5 %, extra 12 -> 6 throws, silent 0.8 %
    # both (0.45-0.75 / 0.3, 0.4-0.8 / 0.35, 0.35-0.8 / 0.4 and 0.3-0.9 / 0.5 the same; 0.5-0.7 / 0.25
    # one throw fewer). On those renders the candidates 0.4-0.75 of a die towards the camera from a
    # likelier one, within 0.35 across, were 9 side faces and 7 dice, those 0.75-0.8 one and 5, so the
    # zone ends at 0.75 (at 0.8 an oblique render of the measured set, a real die dropped, is taken
    # although wrong). Left out of every throw at the table, or of every reading, such candidates
    # take real dice with them (70.0 %; read anywhere, per die 90.1 -> 88.0 %).
    side_face_near: tuple[float, float] = (0.4, 0.75)  # die
    side_face_across: float = 0.35  # die
    # In every reading, count known or not, such a candidate is also left out where it is smaller
    # than this share of the likelier die's size: a side face is seen foreshortened, while a die on
    # the near side of another is nearer the camera and looks no smaller. On the four sets of renders
    # for choosing (720 throws, 10-40 degrees) the zone's sure candidates that were no die were 7
    # under 0.75 of the likelier one's size, 7 more under 0.8, 6 under 0.85; real dice there 1 at
    # 0.74, then 3 under 0.8 and 4 under 0.85 (and one held doubtful, at 0.71: the margin is thin).
    # At the table (right / silent of 720) 569 / 7 without it, 571 / 7 at 0.7 to 0.9; read anywhere
    # exact 527 throws without it, 532 at 0.7 and 0.75, 533 at 0.8, 530 at 0.85 and 0.9; per die
    # unchanged at 0.7 (93.7 / 89.0 / 92.4 / 91.9), down by up to 0.2 at 0.75 and 0.8, 0.6 at 0.9.
    # 0.7 drops no real die there (session scripts; ``vision/models/README.md``). Only a die read
    # has such side faces, not a doubtful candidate (the same figures, to the throw). Chosen again
    # with the closer look's dice added (``leaning_closer_look_presence``): 575 / 5 at 0.7 and 0.75,
    # 576 / 5 at 0.8 to 0.9, one throw of 720 and no difference; 0.8 took one oblique render fewer.
    side_face_size_ratio: float = 0.7  # -
    # Where the camera leans, every reading is read again at the first of ``closer_looks`` (below),
    # and a die read surely there, at least this likely a die and of the throw's size
    # (``typical_size_ratio`` either way of the median of the dice read surely), where the usual
    # look has none, is added (``reader.with_dice_a_closer_look_finds``): a leaning camera sees the
    # dice of a pile overlap, and the usual passes miss one now and then (and a keycap or a card
    # read as a 1 may take the missed die's place, at a table too). Chosen on the four sets of
    # renders for choosing (720 throws, 10-40 degrees), at the table right / silent: 571 / 7
    # without it, 575 / 6 at 0.95 and 0.97, 574 / 6 at 0.9; read anywhere 532 -> 547 throws exact,
    # per die 93.7 -> 94.3, 89.0 -> 91.1, 92.4 -> 92.9 and 91.9 -> 92.7 %. Dice of any size added:
    # 573 / 8 (a pip of a die pressed among others read as a 1); the closer look's likely dice of
    # unsure face added too (at 0.8 or 0.95): 575 / 6, 544 or 546 exact. A leaning camera's reading
    # takes about 2.8 times as long (a median 17 -> 48 ms on those renders, one thread). 0 turns it off.
    leaning_closer_look_presence: float = 0.95  # -
    # A throw read short at the table (fewer dice found than thrown, some found) is looked at again
    # with the detector passes less shrunk: each of ``closer_looks`` (coarse shrink, fine shrink) in
    # turn (``reader.closer_look``), until one finds as many dice as thrown, which is taken
    # (``reader.taken``); none does, and the first refusal stands. A camera close over big dice shows
    # the usual coarse pass only their pips, and dice pressed together or far from a leaning camera
    # are found apart at a finer pass. The first look (4, 1) takes three to five times the usual
    # read's time (5 dice, one thread: 640x480 17 -> 44 ms, 1280x960 32 -> 148 ms), and was chosen at
    # the table on the choosing sets: the 118 photos 82 -> 84 right (the coarse pass alone or with the
    # fine one; 6 alone the same), none more silently wrong; the 120 leaning renders 70.0 -> 71.7 (the
    # coarse pass alone 70.0), silent 0.8 %; bench-vision's trays drawn for choosing: touching
    # 91.5 -> 93.0, crowd 70.0 -> 79.0 % right (the coarse pass alone 72.5), the other kinds alike.
    # Run on every throw, the closer coarse pass takes two choosing photos silently wrong; a throw
    # read in full costs nothing more. The second (3, 2), for a throw the first still finds short,
    # costs about 1.3 usual reads; on those trays touching 93.0 -> 94.5, crowd 79.0 -> 82.0 % right,
    # silent 0.5 % as before (second looks of (6, 2), (4, 2) or (2, 2) gained less; (3, 2) in place
    # of the first, crowd 73.5); every choosing photo and leaning render taken as before. The third
    # (6, 2), for a throw both still find short: on the 924 training photos 668 -> 669 right, on a
    # second draw of trays for choosing (``bench-vision --seed 201``) crowd 85.5 -> 86.5 %, no throw
    # more silently wrong, the choosing photos and the first draw as before (a third of (2, 1) took
    # one throw of that draw silently wrong).
    closer_looks: tuple[tuple[int, int], ...] = ((4, 1), (3, 2), (6, 2))  # (-, -)

    # --- output ---
    row_tolerance: float = 0.5  # die: dice whose centres differ by less than this in y share a row
    # Every die's face reported however unsure (``keeping_every_face``), for measures that apply the
    # face threshold afterwards; the reader's own steps still weigh faces against its thresholds.
    keeps_every_face: bool = False

    @property
    def face_threshold(self) -> float:
        """The threshold a face must reach for this camera: straight down or leaning."""
        return self.min_value_probability if self.up is None else self.leaning_min_value_probability

    def keeping_every_face(self) -> ReaderParams:
        """These params reporting every face, for a camera straight down or leaning: a reading that
        holds every answer, each threshold applied afterwards (``evaluation.at_threshold``). The
        thresholds stay, since the reader's own steps weigh faces by them (which dice tell the
        throw's size, which big die is two, which odd one is doubtful): the reading is the
        reader's own but for its last step."""
        return replace(self, keeps_every_face=True)

    @property
    def reading_detector(self) -> Path:
        """The detector that finds this camera's dice: straight down or leaning."""
        return self.detector_model if self.up is None else self.leaning_detector_model

    @property
    def reading_classifier(self) -> Path:
        """The classifier that reads this camera's crops: straight down or leaning."""
        return self.classifier_model if self.up is None else self.leaning_classifier_model

    @property
    def reads_with_table_layer(self) -> bool:
        """Whether a table's own last layer reads this camera's crops: it was fitted on the
        straight-down classifier's features, and a leaning camera's own classifier makes others."""
        return self.reading_classifier == self.classifier_model


DEFAULT_PARAMS = ReaderParams()


NET_FILES = {  # field: file name
    "classifier_model": "dice-classifier.onnx",
    "detector_model": "dice-detector.onnx",
    "leaning_detector_model": "dice-detector-leaning.onnx",
    "leaning_classifier_model": "dice-classifier-leaning.onnx",
    "lone_die_classifier_model": "dice-classifier-lone.onnx",
}


def nets_in(folder: Path) -> dict[str, Path]:
    """The model fields of the nets ``folder`` holds (``NET_FILES``), for ``replace(params, **nets_in(folder))``:
    a candidate's folder may hold some of the nets, the others then being the shipped ones."""
    return {field: folder / file for field, file in NET_FILES.items() if (folder / file).is_file()}
