"""Digit recognition engines behind one small interface (``pipeline.ocr.base.OcrEngine``)."""
