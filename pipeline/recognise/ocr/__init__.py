"""Digit recognition engines behind one small interface
(``pipeline.recognise.ocr.base.OcrEngine``)."""
