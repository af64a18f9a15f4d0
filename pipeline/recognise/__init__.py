"""Recognise: read the given digits of a rectified board (with an OCR engine from ``ocr/``)
and turn the board upright from what they say."""
