"""Hostile input: the pathological shapes and the long fuzzing campaign.

``fuzz.shapes`` builds the adversarial files every linear-time test and
benchmark uses; ``python -m fuzz`` runs the atheris campaign (the ``fuzz``
extra), which the test suite never needs.
"""
