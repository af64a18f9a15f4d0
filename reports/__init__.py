"""Documents made from a batch's rows: the book report (HTML, PDF by headless Chromium) and
the answer-key PDF."""
